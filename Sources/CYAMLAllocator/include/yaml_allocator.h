#ifndef CYAML_ALLOCATOR_H
#define CYAML_ALLOCATOR_H

/// The freed small blocks libyaml's allocation functions keep for the calling thread (0 where they are not replaced).
int cyaml_cached_block_count(void);

#endif
