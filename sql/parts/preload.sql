-- ---------------------------------------------------------------------------
-- Whether uid is preloaded (src/core/preload.c)
-- ---------------------------------------------------------------------------

-- Without uid in shared_preload_libraries the extension installs but issues
-- no ID: a WARNING says so now rather than the first insert (src/core/preload.c).
CREATE FUNCTION @extschema@.uid_warn_unpreloaded() RETURNS void
AS 'MODULE_PATHNAME', 'uid_warn_unpreloaded' LANGUAGE C;
SELECT @extschema@.uid_warn_unpreloaded();
DROP FUNCTION @extschema@.uid_warn_unpreloaded();
