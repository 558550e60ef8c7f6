/* The decode floor of `analyze` (issue 13), measured with exactly the libjpeg-turbo calls and
 * scales analyze makes per still — nothing else: the delivery file decoded to Y/Cb/Cr planes
 * (tjDecompressToYUVPlanes) at the smallest scale at least 320 x 240 (1/4 for a 1280 x 960
 * still), and the second view decoded straight to gray (tjDecompress2, TJPF_GRAY) at the
 * smallest scale at least 96 x 64 (1/8), with analyze's flags (TJFLAG_LIMITSCANS |
 * TJFLAG_STOPONWARNING). One handle, buffers allocated once; each pair decoded until
 * `seconds` of CPU time have passed (after one warm-up pair).
 *
 * usage: decode_floor SECONDS DELIVERY.jpg SECOND-VIEW.jpg [DELIVERY SECOND-VIEW ...]
 * prints one line per pair: "<ms per still> <delivery scale> <second-view scale>", then
 * "mean <ms per still>" (CPU milliseconds of one core per still).
 * Built and run by bench/ingest.sh: cc -O2 bench/decode_floor.c -lturbojpeg. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <turbojpeg.h>

static unsigned char *slurp(const char *path, unsigned long *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
    fclose(f);
    *size = (unsigned long)n;
    return b;
}

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The smallest scaling factor whose scaled picture is at least tw x th (analyze's rule). */
static tjscalingfactor pick(int w, int h, int tw, int th) {
    int n = 0;
    tjscalingfactor *list = tjGetScalingFactors(&n), best = { 1, 1 };
    for (int i = 0; i < n; i++) {
        tjscalingfactor f = list[i];
        if (f.num > f.denom || TJSCALED(w, f) < tw || TJSCALED(h, f) < th) continue;
        if (f.num * best.denom < best.num * f.denom) best = f;
    }
    return best;
}

int main(int argc, char **argv) {
    if (argc < 4 || (argc - 2) % 2) { fprintf(stderr, "usage: %s SECONDS DELIVERY SECOND-VIEW ...\n", argv[0]); return 2; }
    double seconds = atof(argv[1]), sum = 0;
    int pairs = 0, flags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING;
    tjhandle h = tjInitDecompress();
    for (int a = 2; a + 1 < argc; a += 2) {
        unsigned long ds, ss;
        unsigned char *d = slurp(argv[a], &ds), *s = slurp(argv[a + 1], &ss);
        int dw, dh, dsamp, dcs, sw, sh, ssamp, scs;
        if (!d || !s || tjDecompressHeader3(h, d, ds, &dw, &dh, &dsamp, &dcs) || tjDecompressHeader3(h, s, ss, &sw, &sh, &ssamp, &scs)) {
            fprintf(stderr, "skipped %s: %s\n", argv[a], tjGetErrorStr2(h));
            free(d); free(s);
            continue;
        }
        tjscalingfactor fd = pick(dw, dh, 320, 240), fs = pick(sw, sh, 96, 64);
        int pw = TJSCALED(dw, fd), ph = TJSCALED(dh, fd), gw = TJSCALED(sw, fs), gh = TJSCALED(sh, fs);
        int planes = dsamp == TJSAMP_GRAY ? 1 : 3, strides[3];
        unsigned char *ptr[3];
        for (int c = 0; c < planes; c++) {
            strides[c] = tjPlaneWidth(c, pw, dsamp);
            ptr[c] = malloc((size_t)strides[c] * (size_t)tjPlaneHeight(c, ph, dsamp));
        }
        unsigned char *gray = malloc((size_t)gw * (size_t)gh);
        long n = 0;
        double t0 = 0;
        for (;;) {
            if (tjDecompressToYUVPlanes(h, d, ds, ptr, pw, strides, ph, flags)
                || tjDecompress2(h, s, ss, gray, gw, gw, gh, TJPF_GRAY, flags)) {
                fprintf(stderr, "failed %s: %s\n", argv[a], tjGetErrorStr2(h));
                break;
            }
            if (n == 0) t0 = cpu_now();   /* the first pair warms up */
            n++;
            if (n > 1 && cpu_now() - t0 >= seconds) break;
        }
        if (n > 1) {
            double ms = (cpu_now() - t0) * 1000 / (double)(n - 1);
            printf("%.4f %d/%d %d/%d\n", ms, fd.num, fd.denom, fs.num, fs.denom);
            sum += ms;
            pairs++;
        }
        for (int c = 0; c < planes; c++) free(ptr[c]);
        free(gray); free(d); free(s);
    }
    tjDestroy(h);
    if (!pairs) return 1;
    printf("mean %.4f\n", sum / pairs);
    return 0;
}
