-- uid_decode(text): whatever form of an ID a user pastes, told apart and
-- decoded; and the note for numbers too small to be an ID uid_next() issued.
\pset null '(null)'
SET timezone = 'UTC';

-- An untyped literal resolves to uid_decode(text), the one candidate of the
-- string category, which PostgreSQL prefers for an unknown argument: with
-- uid_decode(bigint), uid_decode(uuid) and uid_decode(uid) alone it was "not
-- unique".  Only this form has the column form.
SELECT pg_typeof(form), form, id, ts, worker_id, sequence, note
FROM uid_decode('120583409050324992');
-- and so does an untyped parameter
PREPARE decode_pasted AS SELECT form, prefix, id FROM uid_decode($1);
EXECUTE decode_pasted('order_03B35Z2Z40400');
DEALLOCATE decode_pasted;

-- Every form of the same uid, and of the same UUID, reads back to it
SELECT f.input, d.form, d.prefix, d.id, d.ts, d.worker_id, d.sequence, d.ms_since_epoch
FROM (VALUES ('120583409050324992'),
             (uid_to_text(120583409050324992)),
             (lower(uid_to_text(120583409050324992))),
             (uid_to_text(120583409050324992, 'order')),
             ('  ' || uid_to_text(120583409050324992, 'order_line') || E'\n')) f(input),
     uid_decode(f.input) d;
SELECT f.input, d.form, d.prefix, d.uuid, d.ts, d.version, d.variant, d.id IS NULL AS no_id
FROM (VALUES ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
             ('017F22E279B07CC398C4DC0C0C07398F'),
             (uuid_to_text('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')),
             (uuid_to_typeid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'user')),
             (uuid_to_typeid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f', ''))) f(input),
     uid_decode(f.input) d;
-- the TypeID specification's example; a v4 (no time) and the nil UUID (not RFC 9562's variant)
SELECT form, prefix, uuid, ts, version, variant FROM uid_decode('user_01h455vb4pex5vsknk084sn02q');
SELECT form, uuid, ts, version, variant FROM uid_decode('919108f7-52d1-4320-9bac-f847db4148a8');
SELECT form, uuid, ts, version, variant FROM uid_decode('00000000000000000000000000');
-- the columns of uid_decode(bigint) and uid_decode(uuid), with the same values
SELECT (SELECT (d.ts, d.worker_id, d.sequence, d.ms_since_epoch)::text FROM uid_decode('120583409050324992') d) =
       (SELECT (d.ts, d.worker_id, d.sequence, d.ms_since_epoch)::text FROM uid_decode(120583409050324992) d) AS same_uid,
       (SELECT (d.ts, d.version, d.variant)::text FROM uid_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::text) d) =
       (SELECT (d.ts, d.version, d.variant)::text FROM uid_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) d) AS same_uuid;
-- The rule, by length and alphabet.  32 hexadecimal digits are a UUID, also
-- when every digit is decimal (a v7 among them), never a bigint
SELECT form, uuid, version FROM uid_decode('00000000000000000000000000000001');
SELECT form, uuid, version, ts FROM uid_decode('01900000000070008000000000000001');
-- 13 decimal digits whose first is 0-7 are a bigint and a text form: refused
-- below; read as one with a leading zero, or when both read the same; with a
-- first digit 8 or 9 no text form, so a bigint
SELECT form, id FROM uid_decode('01000000000000');
SELECT form, id FROM uid_decode('0000000000005');
SELECT form, id FROM uid_decode('9234567890123');
SELECT uid_to_text(1::bigint << 60), (uid_decode(uid_from_text('1000000000000'))).worker_id;
-- 26 characters: uuid_to_text() (first digit 0-7), PostgreSQL 19's base32hex
-- of a UUID (the last digit one of 0 4 8 C G K O S; with its padding, 32), or
-- both: then a reading of version 4 or 7 is taken when the other is no UUID
-- of RFC 9562 (variant 0b10, version 1 to 8)
SELECT f.input, d.form, d.uuid, d.version
FROM (VALUES ('00000000000000000000000001'), ('00000000000000000000000000'),
             ('05VI5OJPM1UC7664RG60O1PPHS'), ('05vi5ojpm1uc7664rg60o1pphs'),
             ('05VI5OJPM1UC7664RG60O1PPHS======'),
             ('05VI5OJPM1QIT2D7GD6V59QDSG'), ('01KF7EGVDBEM7BBHJRC8FF7TJ4'),
             ('90000000000000000000000004')) f(input),
     uid_decode(f.input) d;

-- A number too small to be an ID uid_next() issued: a note (a column here;
-- a NOTICE from uid_decode(bigint) given a constant, none for a column)
SELECT form, id, ts, worker_id, sequence, note FROM uid_decode('12345');
SELECT note IS NULL AS no_note FROM uid_decode('362387865600000');
SELECT note IS NOT NULL AS note FROM uid_decode('362387865599999');
SELECT worker_id, sequence FROM uid_decode(12345);
SELECT worker_id FROM uid_decode(120583409050324992);
-- the uid type's uid_decode(uid) (pg_catalog) is the same C function: the same NOTICE
SELECT worker_id, sequence FROM uid_decode(12345::uid);
CREATE TEMP TABLE small_ids (id bigint);
INSERT INTO small_ids VALUES (1), (2), (12345);
SELECT (uid_decode(id)).worker_id FROM small_ids ORDER BY id;

-- Anything else: 22P02, naming what is wrong, the forms read in the context
\set VERBOSITY default
SELECT * FROM uid_decode('hello');
SELECT * FROM uid_decode('');
SELECT * FROM uid_decode('-5');
SELECT * FROM uid_decode('99999999999999999999');
SELECT * FROM uid_decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398');
SELECT * FROM uid_decode('03B35Z2Z4040U');
SELECT * FROM uid_decode('83B35Z2Z40400');
SELECT * FROM uid_decode('01FWHE4YDGFK1SHH6W1G60EEC');
-- two forms: both readings, and the calls that pick one
SELECT * FROM uid_decode('1000000000000');
SELECT * FROM uid_decode('1234567890123');
SELECT * FROM uid_decode('00000000000000000000000004');
-- a v1 in base32hex whose other reading is a v4: both are UUIDs of RFC 9562
SELECT * FROM uid_decode('0TB4ICFDPS8GJAJDAL3QT5J1IC');
-- base32hex digits that are no UUID; padding that is not base32hex's
SELECT * FROM uid_decode('05VI5OJPM1UC7664RG60O1PPHT');
SELECT * FROM uid_decode('05VI5OJPM1UC7664RG60O1PPH=======');
-- 20 or more decimal digits are never a bigint
SELECT * FROM uid_decode('00000000000000000001');
-- prefixed forms: the words of uuid_from_typeid() and uid_from_text(form, prefix)
SELECT * FROM uid_decode('Order_03B35Z2Z40400');
SELECT * FROM uid_decode('order__03B35Z2Z40400');
SELECT * FROM uid_decode('_03B35Z2Z40400');
SELECT * FROM uid_decode('order_03B35Z2Z404');
SELECT * FROM uid_decode('order_83B35Z2Z40400');
SELECT * FROM uid_decode('user_01H455VB4PEX5VSKNK084SN02Q');
SELECT * FROM uid_decode('user_81h455vb4pex5vsknk084sn02q');
\set VERBOSITY terse
-- the SQLSTATE of every refusal
DO $$
DECLARE
    bad text;
BEGIN
    FOREACH bad IN ARRAY ARRAY['hello', '', ' ', '-5', '-0x1', '99999999999999999999',
        '1000000000000', '00000000000000000000000004', '05VI5OJPM1UC7664RG60O1PPHT',
        '017f22e2-79b0-7cc3-98c4-dc0c0c07398', '03B35Z2Z4040U', 'order_x', 'user_01H455VB4PEX5VSKNK084SN02Q',
        E'\u00e9t\u00e9_03B35Z2Z40400']
    LOOP
        BEGIN
            PERFORM uid_decode(bad);
            RAISE NOTICE '% decoded', bad;
        EXCEPTION WHEN invalid_text_representation THEN
            NULL;
        END;
    END LOOP;
    RAISE NOTICE 'every one refused with 22P02';
END
$$;
-- "-0" is 0, as uid_decode(bigint) reads it
SELECT form, id FROM uid_decode('-0');
SELECT uid_decode(NULL::text) IS NULL AS strict;
