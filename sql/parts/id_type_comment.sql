-- The uid type's comment (the type: id_type.sql), a part of its own so
-- that the upgrade from 1.3, which changed it, writes it from here too.

COMMENT ON TYPE uid IS
'A 64-bit id stored, indexed and compared exactly like bigint (its comparison operators are its own, in pg_catalog; its operator classes are bigint''s), which the JSON functions emit as a string of its digits. It holds and reads back bigint''s whole range; uid never issues a negative value (add CHECK (id >= 0) to refuse them).';
