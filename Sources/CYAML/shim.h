#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
#include <yaml.h>
#include <stdlib.h>
#include <string.h>

/// Bytes of input libyaml reads at a time with `cyaml_parser_initialize_small`; its decoded buffer is three times as
/// large, as in libyaml. Every allocation stays under 1 KiB, so glibc serves it from its per-thread cache.
#define CYAML_RAW_BUFFER_SIZE 336
/// Tokens the queue holds before it grows (libyaml starts with 16, an allocation over 1 KiB).
#define CYAML_INITIAL_QUEUE_SIZE 12
/// Entries each stack holds before it grows, as in libyaml.
#define CYAML_INITIAL_STACK_SIZE 16

/// Initializes `parser` as `yaml_parser_initialize` does, with small buffers.
///
/// libyaml's own initializer allocates 16 KiB for raw input, 48 KiB for decoded input and 1.25 KiB of tokens for
/// every parser; a request file is a few hundred bytes, and allocations of 1 KiB or more make glibc consolidate its
/// free lists, which cost more than parsing such a file. libyaml reads its input in chunks of whatever size the
/// raw buffer has and grows its queue and stacks itself, so only the first sizes change. This fills the same
/// fields `yaml_parser_initialize` of libyaml 0.2 fills (the struct is public in yaml.h and `yaml_parser_delete`
/// frees them with free()); with another libyaml version it calls `yaml_parser_initialize` instead.
static inline int cyaml_parser_initialize_small(yaml_parser_t *parser) {
    int major = 0, minor = 0, patch = 0;
    yaml_get_version(&major, &minor, &patch);
    if (major != 0 || minor != 2) return yaml_parser_initialize(parser);

    memset(parser, 0, sizeof(*parser));
    parser->raw_buffer.start = malloc(CYAML_RAW_BUFFER_SIZE);
    parser->buffer.start = malloc(3 * CYAML_RAW_BUFFER_SIZE);
    parser->tokens.start = malloc(CYAML_INITIAL_QUEUE_SIZE * sizeof(yaml_token_t));
    parser->indents.start = malloc(CYAML_INITIAL_STACK_SIZE * sizeof(int));
    parser->simple_keys.start = malloc(CYAML_INITIAL_STACK_SIZE * sizeof(yaml_simple_key_t));
    parser->states.start = malloc(CYAML_INITIAL_STACK_SIZE * sizeof(yaml_parser_state_t));
    parser->marks.start = malloc(CYAML_INITIAL_STACK_SIZE * sizeof(yaml_mark_t));
    parser->tag_directives.start = malloc(CYAML_INITIAL_STACK_SIZE * sizeof(yaml_tag_directive_t));
    if (!parser->raw_buffer.start || !parser->buffer.start || !parser->tokens.start || !parser->indents.start
        || !parser->simple_keys.start || !parser->states.start || !parser->marks.start || !parser->tag_directives.start) {
        // Not yaml_parser_delete: with the stacks' tops not set yet it would pop from a null pointer.
        free(parser->raw_buffer.start);
        free(parser->buffer.start);
        free(parser->tokens.start);
        free(parser->indents.start);
        free(parser->simple_keys.start);
        free(parser->states.start);
        free(parser->marks.start);
        free(parser->tag_directives.start);
        memset(parser, 0, sizeof(*parser));
        return 0;
    }
    parser->raw_buffer.pointer = parser->raw_buffer.last = parser->raw_buffer.start;
    parser->raw_buffer.end = parser->raw_buffer.start + CYAML_RAW_BUFFER_SIZE;
    parser->buffer.pointer = parser->buffer.last = parser->buffer.start;
    parser->buffer.end = parser->buffer.start + 3 * CYAML_RAW_BUFFER_SIZE;
    parser->tokens.head = parser->tokens.tail = parser->tokens.start;
    parser->tokens.end = parser->tokens.start + CYAML_INITIAL_QUEUE_SIZE;
    parser->indents.top = parser->indents.start;
    parser->indents.end = parser->indents.start + CYAML_INITIAL_STACK_SIZE;
    parser->simple_keys.top = parser->simple_keys.start;
    parser->simple_keys.end = parser->simple_keys.start + CYAML_INITIAL_STACK_SIZE;
    parser->states.top = parser->states.start;
    parser->states.end = parser->states.start + CYAML_INITIAL_STACK_SIZE;
    parser->marks.top = parser->marks.start;
    parser->marks.end = parser->marks.start + CYAML_INITIAL_STACK_SIZE;
    parser->tag_directives.top = parser->tag_directives.start;
    parser->tag_directives.end = parser->tag_directives.start + CYAML_INITIAL_STACK_SIZE;
    return 1;
}
#endif
