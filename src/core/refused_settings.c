/*
 * refused_settings.c
 *		The uid settings whose value, written in the server's configuration
 *		(postgresql.conf, postgresql.auto.conf, the command line), PostgreSQL
 *		refused at start-up.
 *
 * PostgreSQL logs a WARNING for such a value and runs an extension's
 * setting on its default instead.  For a setting whose default could change
 * whose IDs this server issues (uid.worker_id: the default 0 is the id of
 * every unconfigured server; the lease store, schema, pool and margins),
 * that would quietly give two servers one worker id.  So each such setting
 * is watched while it is defined, and a refused value stops the issuing of
 * IDs under a worker id (UidLeaseConfigProblem: UID02, config_error) until
 * the configuration is fixed and the server restarted.
 *
 * How a refusal is seen: before DefineCustom*Variable the configured value
 * is still a placeholder's (UidRefusalWatch keeps a copy); while it is
 * defined, PostgreSQL applies it through the setting's check hook, which
 * calls UidRefusalAccepted when it takes a value from the configuration
 * (UidSettingFromConfiguration).  A configured value that the hook never
 * accepted was refused: by the hook itself, or before it, when an integer
 * does not parse or is out of range.  One rule for every type of setting.
 *
 * Only while shared_preload_libraries is processed: a reload keeps the
 * value in effect when the file's is refused (PostgreSQL's rule), and SET or
 * ALTER SYSTEM of a bad value fails with an ERROR; neither is recorded.  The
 * watched settings take effect only at start-up (PGC_POSTMASTER) or in the
 * lease worker, which a refusal keeps from starting, so a refusal lasts
 * until a restart.
 *
 * A uid.* name that is no setting of uid (uid.workr_id for uid.worker_id)
 * is refused the same way: PostgreSQL removes it with a WARNING when the
 * prefix is reserved, and what it was meant to set would run on its default.
 *
 * No shared state: the postmaster records the refusals, and every process
 * it forks inherits them.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc_tables.h"

#include "compat.h"

#include "core/preload.h"
#include "core/refused_settings.h"

/* enough for every watched setting */
#define UID_REFUSAL_MAX		16
/* longest configured value kept to be shown */
#define UID_REFUSAL_VALUE_MAX	128

typedef struct UidRefusalEntry
{
	UidRefusal	r;
	UidRefusalScope scope;
	char		value[UID_REFUSAL_VALUE_MAX];
} UidRefusalEntry;

static UidRefusalEntry refusals[UID_REFUSAL_MAX];
static int	nrefusals = 0;

/* The setting being defined (UidRefusalWatch .. UidRefusalWatchEnd). */
static const char *watched_name = NULL;
static UidRefusalScope watched_scope;
static bool watched_secret;
static char *watched_value = NULL;	/* the configured value, or NULL */
static bool watched_accepted;

/*
 * Before DefineCustom*Variable of a setting whose default could change the
 * IDs issued: keeps the value the configuration gave it, if any.  A secret
 * (a connection string may hold a password) is never shown, only named.
 */
void
UidRefusalWatch(const char *name, UidRefusalScope scope, bool secret)
{
	const char *configured = NULL;

	Assert(watched_name == NULL);
	if (process_shared_preload_libraries_in_progress)
		configured = GetConfigOption(name, true, false);
	watched_name = name;
	watched_scope = scope;
	watched_secret = secret;
	watched_value = configured ? pstrdup(configured) : NULL;
	watched_accepted = false;
}

/*
 * Check hooks of watched settings, on accepting a value: one from the
 * configuration at start-up means the configured value is in effect.
 */
void
UidRefusalAccepted(const char *name, GucSource source)
{
	if (watched_name != NULL && strcmp(name, watched_name) == 0 &&
		UidSettingFromConfiguration(source))
		watched_accepted = true;
}

/* After DefineCustom*Variable: a configured value never accepted was refused. */
void
UidRefusalWatchEnd(void)
{
	Assert(watched_name != NULL);
	if (watched_value != NULL && !watched_accepted && nrefusals < UID_REFUSAL_MAX)
	{
		UidRefusalEntry *e = &refusals[nrefusals++];

		e->r.name = watched_name;
		e->scope = watched_scope;
		strlcpy(e->value, watched_value, sizeof(e->value));
		e->r.value = watched_secret ? NULL : e->value;
		e->r.unknown = false;
	}
	if (watched_value != NULL)
		pfree(watched_value);
	watched_name = NULL;
	watched_value = NULL;
}

/*
 * Just before the "uid" prefix is reserved, while every setting of uid is
 * defined: a uid.* name the configuration gave that is still a placeholder
 * names no setting of uid (a misspelling).  It is recorded as a refusal that
 * stops every ID, since what it was meant to set cannot be known.
 */
void
UidRefusalUnknownNames(void)
{
	struct config_generic **vars;
	int			nvars;

	if (!process_shared_preload_libraries_in_progress)
		return;
	vars = UidGucVariables(&nvars);
	for (int i = 0; i < nvars && nrefusals < UID_REFUSAL_MAX; i++)
	{
		UidRefusalEntry *e;
		const char *value;

		if ((vars[i]->flags & GUC_CUSTOM_PLACEHOLDER) == 0 ||
			strncmp(vars[i]->name, "uid.", 4) != 0)
			continue;
		value = GetConfigOption(vars[i]->name, true, false);
		e = &refusals[nrefusals++];
		e->r.name = MemoryContextStrdup(TopMemoryContext, vars[i]->name);
		e->scope = UID_REFUSAL_ALWAYS;
		strlcpy(e->value, value ? value : "", sizeof(e->value));
		e->r.value = e->value;
		e->r.unknown = true;
	}
}

/*
 * The first refused setting that bears on the IDs issued (in the order
 * they are defined: uid.worker_id first), or NULL.  The lease settings
 * bear on them only when a lease worker runs.
 */
const UidRefusal *
UidRefusalFirst(bool lease_worker_mode)
{
	for (int i = 0; i < nrefusals; i++)
		if (refusals[i].scope == UID_REFUSAL_ALWAYS || lease_worker_mode)
			return &refusals[i].r;
	return NULL;
}

/* The detail of UID02 for a refusal: the setting, and the value refused. */
char *
UidRefusalDetail(const UidRefusal *r)
{
	if (r->unknown)
		return psprintf("%s = '%s' in the server's configuration names no setting of uid (misspelled?), "
						"so PostgreSQL removed it at start-up and what it was meant to set runs on its default, "
						"which nobody chose.", r->name, r->value);
	if (r->value == NULL)
		return psprintf("The value of %s in the server's configuration was refused at start-up, "
						"so the setting runs on its default, which nobody chose.", r->name);
	return psprintf("%s = '%s' in the server's configuration was refused at start-up, "
					"so the setting runs on its default, which nobody chose.", r->name, r->value);
}

/* The hint of UID02 for a refusal. */
char *
UidRefusalHint(const UidRefusal *r)
{
	if (r->unknown)
		return psprintf("Correct or remove %s in postgresql.conf, postgresql.auto.conf or on the command line "
						"(SELECT name FROM pg_settings WHERE name LIKE 'uid.%%' lists uid's settings) "
						"and restart the server.", r->name);
	return psprintf("Correct %s in postgresql.conf, postgresql.auto.conf or on the command line "
					"(the server log says why the value was refused) and restart the server.",
					r->name);
}
