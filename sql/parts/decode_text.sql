-- ---------------------------------------------------------------------------
-- uid_decode(text): whatever form of an ID a user pastes (src/forms/decode_text.c)
-- ---------------------------------------------------------------------------

-- A text argument, so that uid_decode('121866...'), an untyped literal,
-- resolves to this one function: for an unknown argument the string
-- category wins over uid_decode(bigint) and uid_decode(uuid) (and the uid
-- type's uid_decode(uid)).  Its columns are a superset of theirs: the form
-- and prefix read, the ID or the UUID, the fields of its kind (the other
-- kind's are NULL), and a note for a number too small to be an ID that
-- uid_next() issued.  It carries the planner support every time function
-- of uid has (layout.sql), which only loads uid: no filter on a text column
-- becomes a range of IDs.
CREATE FUNCTION uid_decode(input text,
    OUT form text, OUT prefix text, OUT id bigint, OUT uuid uuid,
    OUT ts timestamptz, OUT worker_id integer, OUT sequence integer,
    OUT ms_since_epoch bigint, OUT version integer, OUT variant integer,
    OUT note text)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_decode_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.uid_time_filter_support;

COMMENT ON FUNCTION uid_decode(text) IS
'Any form of an ID, told apart by length and alphabet: 1 to 19 decimal digits (form bigint), uid_to_text() (text), uid_to_text(id, prefix) (prefixed), a UUID as 8-4-4-4-12 (uuid) or 32 hex digits (hex), uuid_to_text() (uuid_text), a TypeID (typeid), PostgreSQL 19''s base32hex of a UUID (base32hex); one row of the form, prefix, id or uuid and their fields; 22P02 for anything else, and for an input that reads as two forms.';
