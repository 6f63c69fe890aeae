#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// libxml2 built with ICU includes the system's ICU headers, whose declarations clash with the ICU that Foundation
// bundles. Nothing here uses the encoding handler fields that depend on it.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// Discards a generic libxml2 message (Swift cannot write a C variadic function).
static inline void clibxml2_discard_message(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Stops libxml2 from printing generic messages on the calling thread; structured errors are collected separately.
static inline void clibxml2_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, clibxml2_discard_message);
}

/// Frees a string that libxml2 allocated (xmlFree is a function pointer variable, awkward to call from Swift).
static inline void clibxml2_free(void *pointer) {
    xmlFree(pointer);
}
#endif
