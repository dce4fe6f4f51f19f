/*
 * A tiny SQLite extension for the tests of DatabaseOptions.extension(Path): it registers half(x),
 * x / 2.0 (NULL for NULL), deterministic and innocuous (so usable in the schema). Built at test time by scripts/build-test-extension.sh.
 * The entry point follows SQLite's rule for a library named halfext.so: sqlite3_halfext_init.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

static void half(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void) argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    sqlite3_result_double(context, sqlite3_value_double(argv[0]) / 2.0);
}

int sqlite3_halfext_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
    (void) error;
    SQLITE_EXTENSION_INIT2(api);
    return sqlite3_create_function(db, "half", 1,
            SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0, half, 0, 0);
}
