-- The counters' number line (sql/parts/counter_schema.sql): the exact code
-- of a prefix and the span of a range on it, which uid_counter.ranges
-- stores and its exclusion constraint compares.  Also run by the upgrade
-- from 1.3, which replaced their bodies.

-- The exact code of a prefix: its characters as base-38 digits 1..37, padded
-- with 0 to 16 digits.  Distinct valid prefixes have distinct codes.
CREATE OR REPLACE FUNCTION uid_counter._prefix_code(prefix text)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    code numeric := 0;
    d    integer;
BEGIN
    FOR i IN 1..16 LOOP
        d := 0;
        IF i <= pg_catalog.length($1) THEN
            d := pg_catalog.strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
                                   pg_catalog.substr($1, i, 1));
            IF d = 0 THEN
                RAISE EXCEPTION 'invalid counter prefix: %', pg_catalog.quote_literal($1)
                    USING ERRCODE = '22023';
            END IF;
        END IF;
        code := code * 38 + d;
    END LOOP;
    RETURN code;
END
$$;

COMMENT ON FUNCTION uid_counter._prefix_code(text) IS
'Exact base-38 code of a counter prefix; places each prefix''s ranges in its own window of one number line.';

CREATE OR REPLACE FUNCTION uid_counter._span(prefix text, lo bigint, hi bigint)
RETURNS numrange
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT pg_catalog.numrange(
    uid_counter._prefix_code($1) * 9223372036854775808::numeric
        + $2,
    uid_counter._prefix_code($1) * 9223372036854775808::numeric
        + $3,
    '[]')
$$;

COMMENT ON FUNCTION uid_counter._span(text, bigint, bigint) IS
'The range [lo, hi] of a prefix on the shared number line used by the exclusion constraint.';
