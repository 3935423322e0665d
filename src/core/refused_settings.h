/*
 * refused_settings.h
 *		The uid settings whose configured value PostgreSQL refused at
 *		start-up (refused_settings.c): then no worker id is issued.
 */
#ifndef UID_REFUSED_SETTINGS_H
#define UID_REFUSED_SETTINGS_H

#include "postgres.h"

#include "utils/guc.h"

/* How a watched setting bears on the IDs issued. */
typedef enum UidRefusalScope
{
	UID_REFUSAL_ALWAYS,			/* any refusal stops IDs (uid.worker_id) */
	UID_REFUSAL_LEASE			/* only while a lease worker runs (uid.lease_*) */
} UidRefusalScope;

/* One refused setting, as the configuration gave it. */
typedef struct UidRefusal
{
	const char *name;
	const char *value;			/* NULL for a secret setting: never shown */
	bool		unknown;		/* a uid.* name that is no setting of uid */
} UidRefusal;

extern void UidRefusalWatch(const char *name, UidRefusalScope scope, bool secret);
extern void UidRefusalWatchEnd(void);
extern void UidRefusalAccepted(const char *name, GucSource source);
extern void UidRefusalUnknownNames(void);
extern const UidRefusal *UidRefusalFirst(bool lease_worker_mode);
extern char *UidRefusalDetail(const UidRefusal *r);
extern char *UidRefusalHint(const UidRefusal *r);

#endif							/* UID_REFUSED_SETTINGS_H */
