/*
 * SQLite's own C API committing one row per transaction in a loop: the baseline of the write
 * scenario that no runtime can beat by doing the same work one commit at a time. One connection,
 * the same pragmas and statements as every other system of the bench, a prepared insert reused.
 *
 * usage: sqlite-loop DB SYNCHRONOUS WARMUP_MS DURATION_MS LATENCY_FILE CREATE_SQL INSERT_SQL PAYLOAD
 *        sqlite-loop --version   (prints the version of the SQLite it linked)
 *
 * It writes the latency of every insert of the measured window, in nanoseconds, one per line, to
 * LATENCY_FILE, and prints on standard output:
 *   acknowledged <inserts committed in all, warm-up included>
 *   seconds <length of the measured window>
 *   cpu_ns <the CPU time the process consumed over the window>
 *   cpu_wall_ns <the wall time between the two CPU readings>
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "sqlite-loop: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("%s\n", sqlite3_libversion());
        return 0;
    }
    if (argc != 9) {
        fprintf(stderr, "usage: sqlite-loop DB SYNCHRONOUS WARMUP_MS DURATION_MS LATENCY_FILE "
                        "CREATE_SQL INSERT_SQL PAYLOAD\n");
        return 64;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open(argv[1], &db) != SQLITE_OK) {
        fail(db, "open");
    }
    char setup[160];
    snprintf(setup, sizeof setup, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; "
             "PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON", argv[2]);
    if (sqlite3_exec(db, setup, NULL, NULL, NULL) != SQLITE_OK) {
        fail(db, "pragmas");
    }
    if (sqlite3_exec(db, argv[6], NULL, NULL, NULL) != SQLITE_OK) {
        fail(db, "create");
    }
    sqlite3_stmt *insert = NULL;
    if (sqlite3_prepare_v2(db, argv[7], -1, &insert, NULL) != SQLITE_OK) {
        fail(db, "prepare");
    }
    FILE *latencies = fopen(argv[5], "w");
    if (latencies == NULL) {
        perror("sqlite-loop: latency file");
        return 2;
    }
    long long start = now_ns();
    long long window = start + atoll(argv[3]) * 1000000LL;
    long long end = window + atoll(argv[4]) * 1000000LL;
    long long acknowledged = 0;
    long long cpu_from = -1, wall_from = 0;
    for (;;) {
        long long before = now_ns();
        if (before >= end) {
            break;
        }
        if (cpu_from < 0 && before >= window) {
            cpu_from = cpu_ns();
            wall_from = now_ns();
        }
        sqlite3_bind_text(insert, 1, argv[8], -1, SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE) {
            fail(db, "insert");
        }
        sqlite3_reset(insert);
        long long after = now_ns();
        acknowledged++;
        if (before >= window) {
            fprintf(latencies, "%lld\n", after - before);
        }
    }
    long long cpu = cpu_from < 0 ? 0 : cpu_ns() - cpu_from;
    long long wall = cpu_from < 0 ? 0 : now_ns() - wall_from;
    if (fclose(latencies) != 0) {
        perror("sqlite-loop: latency file");
        return 2;
    }
    sqlite3_finalize(insert);
    if (sqlite3_close(db) != SQLITE_OK) {
        fail(db, "close");
    }
    printf("acknowledged %lld\nseconds %.6f\ncpu_ns %lld\ncpu_wall_ns %lld\n", acknowledged,
           (end - window) / 1e9, cpu, wall);
    return 0;
}
