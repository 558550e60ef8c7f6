/* The LMDB durable write floor of ingest (issue 13): what storing a dump in LMDB costs with
 * nothing else done — no verification, no SHA-256. Every file named on stdin (NUL-separated,
 * as `find -print0` gives them) is read whole and put as ONE value into a fresh environment,
 * in write transactions of about TXN_MIB MiB (default 32, ingest's `batchInlineBytes`), each
 * committed with LMDB's default durable commit (pages written, fdatasync, meta page,
 * fdatasync). The environment is opened as the archive's ContentStore opens it (Sources/LMDB
 * Environment.swift): MDB_NOTLS, no MDB_WRITEMAP, no MDB_NOSYNC, 32 named databases, 126
 * readers; the map is set once to twice the input plus 256 MiB instead of growing (the
 * archive grows it on MDB_MAP_FULL: a few aborted transactions more, not counted here).
 *
 * Keys: 32 bytes (the size of a ContentID) from a counter spread by splitmix64, so they land
 * across the B-tree as SHA-256 keys do, at no hashing cost. What the archive does more per file
 * is not here: a second put (the blob record beside its chunk), chunks of at most 1 MiB − 16
 * bytes for a larger file, the records, index entries and custody events.
 *
 * usage: find DUMP -type f -print0 | lmdb_floor ENV-DIR [TXN_MIB]
 * prints "files N bytes B txns T wall S cpu C" (wall and CPU seconds of the puts and commits,
 * reading the files included: the bench warms the page cache first).
 * Built and run by bench/ingest.sh: cc -O2 bench/lmdb_floor.c -llmdb. */
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double clock_of(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void check(int rc, const char *what) {
    if (rc) { fprintf(stderr, "lmdb_floor: %s: %s\n", what, mdb_strerror(rc)); exit(1); }
}

/* Reads the NUL-separated names on stdin into one buffer; returns their count. */
static size_t read_names(char **names, size_t *size) {
    size_t cap = 1 << 20, n = 0, count = 0;
    char *b = malloc(cap);
    for (;;) {
        if (n == cap) { cap *= 2; b = realloc(b, cap); }
        size_t r = fread(b + n, 1, cap - n, stdin);
        if (r == 0) break;
        n += r;
    }
    for (size_t i = 0; i < n; i++) if (b[i] == '\0') count++;
    *names = b;
    *size = n;
    return count;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: find DUMP -type f -print0 | %s ENV-DIR [TXN_MIB]\n", argv[0]); return 2; }
    size_t txn_bytes = (size_t)(argc > 2 ? atol(argv[2]) : 32) << 20;
    char *names;
    size_t names_size, files = read_names(&names, &names_size);
    uint64_t total = 0;
    for (size_t i = 0; i < names_size; i += strlen(names + i) + 1) {
        struct stat st;
        if (stat(names + i, &st) == 0) total += (uint64_t)st.st_size;
    }
    if (mkdir(argv[1], 0700) && errno != EEXIST) { perror(argv[1]); return 1; }
    MDB_env *env;
    check(mdb_env_create(&env), "mdb_env_create");
    check(mdb_env_set_maxdbs(env, 32), "mdb_env_set_maxdbs");
    check(mdb_env_set_maxreaders(env, 126), "mdb_env_set_maxreaders");
    check(mdb_env_set_mapsize(env, (size_t)(2 * total) + (256u << 20)), "mdb_env_set_mapsize");
    check(mdb_env_open(env, argv[1], MDB_NOTLS, 0600), "mdb_env_open");

    double wall0 = clock_of(CLOCK_MONOTONIC), cpu0 = clock_of(CLOCK_PROCESS_CPUTIME_ID);
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    size_t cap = 1 << 20, in_txn = 0, txns = 0, stored = 0;
    unsigned char *buf = malloc(cap);
    uint64_t counter = 0, bytes = 0;
    for (size_t i = 0; i < names_size; i += strlen(names + i) + 1) {
        int fd = open(names + i, O_RDONLY | O_CLOEXEC);
        if (fd < 0) { perror(names + i); continue; }
        struct stat st;
        if (fstat(fd, &st)) { perror(names + i); close(fd); continue; }
        size_t size = (size_t)st.st_size, got = 0;
        if (size > cap) { cap = size; buf = realloc(buf, cap); }
        while (got < size) {
            ssize_t r = read(fd, buf + got, size - got);
            if (r <= 0) break;
            got += (size_t)r;
        }
        close(fd);
        if (got != size) { fprintf(stderr, "lmdb_floor: short read of %s\n", names + i); continue; }
        if (!txn) {
            check(mdb_txn_begin(env, NULL, 0, &txn), "mdb_txn_begin");
            check(mdb_dbi_open(txn, "floor", MDB_CREATE, &dbi), "mdb_dbi_open");
        }
        uint64_t key[4];
        for (int k = 0; k < 4; k++) key[k] = splitmix64(counter * 4 + (uint64_t)k);
        counter++;
        MDB_val kv = { sizeof key, key }, vv = { size, buf };
        check(mdb_put(txn, dbi, &kv, &vv, MDB_NOOVERWRITE), "mdb_put");
        bytes += size;
        stored++;
        in_txn += size;
        if (in_txn >= txn_bytes) {
            check(mdb_txn_commit(txn), "mdb_txn_commit");
            txn = NULL;
            in_txn = 0;
            txns++;
        }
    }
    if (txn) { check(mdb_txn_commit(txn), "mdb_txn_commit"); txns++; }
    double wall = clock_of(CLOCK_MONOTONIC) - wall0, cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    mdb_env_close(env);
    printf("files %zu bytes %llu txns %zu wall %.3f cpu %.3f\n", stored, (unsigned long long)bytes, txns, wall, cpu);
    free(buf);
    free(names);
    return stored == files ? 0 : 1;
}
