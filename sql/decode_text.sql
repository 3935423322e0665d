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
-- 13 decimal digits are a bigint, not a text form; 26 decimal digits a UUID text form
SELECT form, id FROM uid_decode('1234567890123');
SELECT form, uuid FROM uid_decode('00000000000000000000000001');

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
