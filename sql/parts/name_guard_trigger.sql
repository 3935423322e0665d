-- The event trigger of uid_guard_names() (sql/parts/name_guard.sql, which
-- the upgrade from 1.3 runs again; the trigger it keeps).

CREATE EVENT TRIGGER uid_guard_names ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE',
                 'ALTER ROUTINE', 'CREATE AGGREGATE', 'ALTER AGGREGATE')
    EXECUTE FUNCTION uid_guard_names();
