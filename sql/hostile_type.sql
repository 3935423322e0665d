--
-- hostile_type: another role's operators and functions for the uid type are
-- never chosen for a superuser's query on a uid column.  The role may
-- create in public (the database owner owns it on 15 and later) and owns a
-- schema that comes first on the path (as "$user" does when the database
-- owner creates a schema named after the superuser).  Every planted
-- function records that it ran, and as whom.
--
CREATE ROLE type_planter;
CREATE TABLE public.planted_ran (fn text, who text);
GRANT INSERT ON public.planted_ran TO type_planter;
GRANT CREATE ON SCHEMA public TO type_planter;
CREATE SCHEMA planter_first AUTHORIZATION type_planter;
CREATE TABLE public.horders (id uid PRIMARY KEY, item text);
INSERT INTO public.horders VALUES (1, 'one'), (2, 'two');

SET ROLE type_planter;
DO $$
DECLARE
    s text;
BEGIN
    FOREACH s IN ARRAY ARRAY['public', 'planter_first'] LOOP
        EXECUTE format($f$
            CREATE FUNCTION %1$I.trap(uid, uid) RETURNS boolean LANGUAGE plpgsql AS $b$
            BEGIN INSERT INTO public.planted_ran VALUES ('%1$s.=(uid,uid)', current_user); RETURN true; END $b$;
            CREATE FUNCTION %1$I.trap(uid, bigint) RETURNS boolean LANGUAGE plpgsql AS $b$
            BEGIN INSERT INTO public.planted_ran VALUES ('%1$s.=(uid,bigint)', current_user); RETURN true; END $b$;
            CREATE FUNCTION %1$I.trap(uid, integer) RETURNS boolean LANGUAGE plpgsql AS $b$
            BEGIN INSERT INTO public.planted_ran VALUES ('%1$s.=(uid,integer)', current_user); RETURN true; END $b$;
            CREATE FUNCTION %1$I.trap(uid, numeric) RETURNS boolean LANGUAGE plpgsql AS $b$
            BEGIN INSERT INTO public.planted_ran VALUES ('%1$s.=(uid,numeric)', current_user); RETURN true; END $b$;
            CREATE OPERATOR %1$I.= (LEFTARG = uid, RIGHTARG = uid, FUNCTION = %1$I.trap);
            CREATE OPERATOR %1$I.< (LEFTARG = uid, RIGHTARG = uid, FUNCTION = %1$I.trap);
            CREATE OPERATOR %1$I.= (LEFTARG = uid, RIGHTARG = bigint, FUNCTION = %1$I.trap);
            CREATE OPERATOR %1$I.= (LEFTARG = uid, RIGHTARG = integer, FUNCTION = %1$I.trap);
            CREATE OPERATOR %1$I.< (LEFTARG = uid, RIGHTARG = numeric, FUNCTION = %1$I.trap);
            $f$, s);
    END LOOP;
    -- functions: where the path reaches them first (uid's event trigger
    -- refuses uid's names in uid's schema, public: TAP 084)
    CREATE FUNCTION planter_first.uid_to_text(uid) RETURNS text LANGUAGE plpgsql AS $b$
    BEGIN INSERT INTO public.planted_ran VALUES ('uid_to_text(uid)', current_user); RETURN 'x'; END $b$;
    CREATE FUNCTION planter_first.uid_decode(uid) RETURNS text LANGUAGE plpgsql AS $b$
    BEGIN INSERT INTO public.planted_ran VALUES ('uid_decode(uid)', current_user); RETURN 'x'; END $b$;
    CREATE FUNCTION planter_first.uid_time(uid) RETURNS timestamptz LANGUAGE plpgsql AS $b$
    BEGIN INSERT INTO public.planted_ran VALUES ('uid_time(uid)', current_user); RETURN now(); END $b$;
    CREATE FUNCTION planter_first.uid_to_text(uid, text) RETURNS text LANGUAGE plpgsql AS $b$
    BEGIN INSERT INTO public.planted_ran VALUES ('uid_to_text(uid,text)', current_user); RETURN 'x'; END $b$;
END
$$;
RESET ROLE;

-- a superuser's ordinary queries, with public alone and with the planter's
-- schema first
CREATE FUNCTION pg_temp.queries() RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY SELECT item FROM public.horders WHERE id = '1';
    RETURN QUERY SELECT item FROM public.horders WHERE id = 1;
    RETURN QUERY SELECT item FROM public.horders WHERE id = 1::bigint;
    RETURN QUERY SELECT item FROM public.horders WHERE id < 1.5;
    RETURN QUERY SELECT o1.item FROM public.horders o1 JOIN public.horders o2 ON o1.id = o2.id WHERE o1.id < o2.id;
    RETURN QUERY SELECT item FROM public.horders WHERE id IN ('1', '2') AND id < '2';
    RETURN QUERY SELECT uid_to_text(id) FROM public.horders;
    RETURN QUERY SELECT uid_to_text(id, 'ord') FROM public.horders;
    RETURN QUERY SELECT (uid_decode(id))::text FROM public.horders;
    RETURN QUERY SELECT uid_time(id)::text FROM public.horders;
END
$$;
SET search_path = public;
SELECT count(*) AS rows FROM pg_temp.queries();
SET search_path = planter_first, public;
SELECT count(*) AS rows FROM pg_temp.queries();
RESET search_path;
SELECT fn, who FROM public.planted_ran ORDER BY 1;

DROP SCHEMA planter_first CASCADE;
DROP FUNCTION public.trap(uid, uid), public.trap(uid, bigint), public.trap(uid, integer),
    public.trap(uid, numeric) CASCADE;
DROP TABLE public.horders, public.planted_ran;
REVOKE CREATE ON SCHEMA public FROM type_planter;
DROP ROLE type_planter;
