/*
 * Lanes' guard: a SQLite loadable extension that turns on SQLite's own defences on the connection
 * that loads it. Its init function
 *   - sets SQLITE_DBCONFIG_DEFENSIVE (no writable_schema, no writes to sqlite_schema, to shadow
 *     tables or to sqlite_dbpage, no PRAGMA journal_mode=OFF or schema_version=N), and
 *   - installs an authorizer, which SQLite consults for every PRAGMA as it prepares a statement,
 *     whatever its spelling, and registers lanes_guard_seal(names).
 * lanes_guard_seal(known, refused), two lists of pragma names separated by spaces, runs once per
 * connection: from then on the authorizer refuses to prepare a PRAGMA whose name is not in known
 * (SQLite would ignore it, or a newer SQLite may know it), or that sets one in refused (a PRAGMA
 * with an argument), and any later call of lanes_guard_seal itself. Both lists come from Lanes'
 * pragma table.
 *
 * A second entry point, sqlite3_lanesfiles_init, loaded only into a private connection of Lanes'
 * and never into one that runs SQL of a user's, registers the file lock of a lease:
 * lanes_lock_file(path) takes an open-file-description lock (F_OFD_SETLK) on one byte of the
 * database file, far past any byte SQLite locks, and returns its descriptor, or -1 when another
 * open of the file holds it (another process, or another name of the file), or -2 when this file
 * system cannot take it; lanes_unlock_file(fd) closes the descriptor, which drops the lock. Unlike
 * the POSIX record locks Java can take, such a lock belongs to its descriptor, not to the process:
 * SQLite closing its own descriptors of the file never drops it, and another name of the same
 * file (a hard link) meets it.
 *
 * Built with sqlite3ext.h, so every SQLite call goes through the routines of the SQLite that loads
 * it (the one inside sqlite-jdbc), never a system library.
 */
#define _GNU_SOURCE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SEAL_FUNCTION "lanes_guard_seal"

/* A list of names: each followed by a NUL, an empty name ends them. */
typedef struct Guard {
  int sealed;
  char *known;
  char *refused;
} Guard;

static int listed(const char *names, const char *pragma) {
  const char *n;
  if (names == 0 || pragma == 0) {
    return 0;
  }
  for (n = names; *n; n += strlen(n) + 1) {
    if (sqlite3_stricmp(n, pragma) == 0) {
      return 1;
    }
  }
  return 0;
}

static int authorize(void *data, int action, const char *a1, const char *a2, const char *db,
    const char *trigger) {
  const Guard *g = (const Guard *) data;
  (void) db;
  (void) trigger;
  if (!g->sealed) {
    return SQLITE_OK;
  }
  if (action == SQLITE_PRAGMA && (!listed(g->known, a1) || (a2 != 0 && listed(g->refused, a1)))) {
    return SQLITE_DENY;
  }
  if (action == SQLITE_FUNCTION && a2 != 0 && sqlite3_stricmp(a2, SEAL_FUNCTION) == 0) {
    return SQLITE_DENY;
  }
  return SQLITE_OK;
}

/* Space-separated names as a list (see Guard); null when out of memory. */
static char *list(const unsigned char *text) {
  size_t len = strlen((const char *) text), i;
  char *names = (char *) sqlite3_malloc64(len + 2);
  if (names == 0) {
    return 0;
  }
  for (i = 0; i < len; i++) {
    names[i] = text[i] == ' ' ? 0 : (char) text[i];
  }
  names[len] = 0;
  names[len + 1] = 0;
  return names;
}

static void seal(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  Guard *g = (Guard *) sqlite3_user_data(ctx);
  const unsigned char *known = sqlite3_value_text(argv[0]);
  const unsigned char *refused = sqlite3_value_text(argv[1]);
  (void) argc;
  if (g->sealed) {
    sqlite3_result_error(ctx, SEAL_FUNCTION ": the guard is sealed already", -1);
    return;
  }
  if (known == 0 || refused == 0 || known[0] == 0) {
    sqlite3_result_error(ctx, SEAL_FUNCTION ": no names", -1);
    return;
  }
  g->known = list(known);
  g->refused = list(refused);
  if (g->known == 0 || g->refused == 0) {
    sqlite3_free(g->known);
    sqlite3_free(g->refused);
    g->known = 0;
    g->refused = 0;
    sqlite3_result_error_nomem(ctx);
    return;
  }
  g->sealed = 1;
  sqlite3_result_int(ctx, 1);
}

static void destroy(void *data) {
  Guard *g = (Guard *) data;
  sqlite3_free(g->known);
  sqlite3_free(g->refused);
  sqlite3_free(g);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_lanesguard_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  Guard *g;
  int on = 0;
  int rc;
  SQLITE_EXTENSION_INIT2(api);
  rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on);
  if (rc != SQLITE_OK || on != 1) {
    *error = sqlite3_mprintf("lanes guard: SQLite refused SQLITE_DBCONFIG_DEFENSIVE");
    return rc != SQLITE_OK ? rc : SQLITE_ERROR;
  }
  g = (Guard *) sqlite3_malloc(sizeof(Guard));
  if (g == 0) {
    return SQLITE_NOMEM;
  }
  g->sealed = 0;
  g->known = 0;
  g->refused = 0;
  /* the function owns the guard: it is freed with the function, when the connection closes */
  rc = sqlite3_create_function_v2(db, SEAL_FUNCTION, 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, g, seal,
      0, 0, destroy);
  if (rc != SQLITE_OK) {
    *error = sqlite3_mprintf("lanes guard: cannot register " SEAL_FUNCTION);
    return rc;
  }
  rc = sqlite3_set_authorizer(db, authorize, g);
  if (rc != SQLITE_OK) {
    *error = sqlite3_mprintf("lanes guard: cannot install the authorizer");
  }
  return rc;
}

/* ------------------------------------------------------------------ the file lock of a lease */

/* The byte locked: past any database SQLite can write, and past SQLite's own lock bytes. */
#define LEASE_BYTE ((off_t) 1 << 62)

static void lock_file(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *path = (const char *) sqlite3_value_text(argv[0]);
  struct flock lock;
  int fd;
  (void) argc;
  if (path == 0) {
    sqlite3_result_int(ctx, -2);
    return;
  }
  fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    sqlite3_result_int(ctx, -2);
    return;
  }
  memset(&lock, 0, sizeof lock);
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  lock.l_start = LEASE_BYTE;
  lock.l_len = 1;
  if (fcntl(fd, F_OFD_SETLK, &lock) == 0) {
    sqlite3_result_int(ctx, fd);
    return;
  }
  sqlite3_result_int(ctx, errno == EAGAIN || errno == EACCES ? -1 : -2);
  close(fd);
}

static void unlock_file(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void) argc;
  sqlite3_result_int(ctx, close(sqlite3_value_int(argv[0])) == 0);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_lanesfiles_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
  int rc;
  SQLITE_EXTENSION_INIT2(api);
  rc = sqlite3_create_function_v2(db, "lanes_lock_file", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, 0,
      lock_file, 0, 0, 0);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "lanes_unlock_file", 1,
        SQLITE_UTF8 | SQLITE_DIRECTONLY, 0, unlock_file, 0, 0, 0);
  }
  if (rc != SQLITE_OK) {
    *error = sqlite3_mprintf("lanes guard: cannot register the file lock functions");
  }
  return rc;
}
