/*
 * catalog.h
 *		uid's own objects in the catalog (catalog.c).
 */
#ifndef UID_CATALOG_H
#define UID_CATALOG_H

#include "postgres.h"

extern Oid	UidExtensionSchema(void);
extern Oid	UidRelationOwner(Oid relid);
extern Oid	UidIdTypeOid(void);
extern bool UidIsIdType(Oid type);

#endif							/* UID_CATALOG_H */
