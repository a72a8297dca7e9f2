/*
 * privdrop.h: the root parent's capability drop once the relay runs
 * (parent/privdrop.c).
 */
#ifndef PARENT_PRIVDROP_H
#define PARENT_PRIVDROP_H

/* Every securebit the parent sets, each with its lock; KEEP_CAPS off. */
#define PARENT_SECUREBITS	0xefUL

void	parent_drop_privileges(void);

#endif
