/* Makes Tests/Fixtures/images/large_1024x768_exif.jpg: a 1024x768 photo-like picture (gradients,
 * rings, a little noise, so it weighs about 300 KB at quality 90, as a large Flickr size does) with an
 * Exif segment (an ImageDescription and Orientation 1) right after SOI. The store's large-image tests
 * store it, and check that what `w` saves keeps its Exif. Run once; the file is committed:
 *
 *     cc scripts/make_large_fixture.c -o /tmp/make_large_fixture -lturbojpeg -lm
 *     /tmp/make_large_fixture > Tests/Fixtures/images/large_1024x768_exif.jpg
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

int main(void) {
    const int w = 1024, h = 768;
    unsigned char *rgb = malloc((size_t)w * h * 3);
    unsigned int seed = 12345;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned char *p = rgb + ((size_t)y * w + x) * 3;
            double r = sqrt((x - 400.0) * (x - 400.0) + (y - 300.0) * (y - 300.0));
            seed = seed * 1103515245u + 12345u;
            int noise = (int)(((int)((seed >> 16) % 256) - 128) * 0.1);
            int v[3] = {(int)(x * 255.0 / w), (int)(128 + 100 * sin(r / 9.0)), (int)(y * 255.0 / h)};
            for (int c = 0; c < 3; c++) {
                int t = v[c] + noise;
                p[c] = (unsigned char)(t < 0 ? 0 : t > 255 ? 255 : t);
            }
        }
    }
    tjhandle tj = tjInitCompress();
    unsigned char *jpeg = NULL;
    unsigned long size = 0;
    if (tjCompress2(tj, rgb, w, 0, h, TJPF_RGB, &jpeg, &size, TJSAMP_420, 90, 0) != 0) {
        fprintf(stderr, "%s\n", tjGetErrorStr());
        return 1;
    }
    /* Exif: little-endian TIFF, IFD0 with ImageDescription (ASCII at offset 38) and Orientation 1. */
    static const char description[] = "vtourist large-image test photo";
    unsigned char tiff[38 + sizeof description] = {
        'I', 'I', 42, 0, 8, 0, 0, 0,  /* header, IFD0 at 8 */
        2, 0,                         /* two entries */
        0x0E, 0x01, 2, 0, sizeof description, 0, 0, 0, 38, 0, 0, 0,
        0x12, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0,
        0, 0, 0, 0,                   /* no next IFD */
    };
    memcpy(tiff + 38, description, sizeof description);
    unsigned int length = 2 + 6 + sizeof tiff;
    unsigned char app1[4 + 6] = {0xFF, 0xE1, length >> 8, length & 0xFF, 'E', 'x', 'i', 'f', 0, 0};
    fwrite(jpeg, 1, 2, stdout);
    fwrite(app1, 1, sizeof app1, stdout);
    fwrite(tiff, 1, sizeof tiff, stdout);
    fwrite(jpeg + 2, 1, size - 2, stdout);
    tjFree(jpeg);
    tjDestroy(tj);
    free(rgb);
    return 0;
}
