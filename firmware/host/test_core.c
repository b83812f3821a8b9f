/* Host tests for the portable core: the shared protocol vectors, the detector on recorded
 * traces, and the commands. Built with the host gcc by the Makefile (`make host-test`).
 *
 * usage: test_core VECTORS_FILE TRACE.csv...
 * Prints TAP ("ok N - ..." / "not ok N - ..."); exits 1 if anything failed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/die_core.h"
#include "../core/frame.h"

static int n_tests, n_failed;

static void check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    n_tests++;
    if (!cond) {
        n_failed++;
    }
    printf("%s %d - ", cond ? "ok" : "not ok", n_tests);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ---- the board hooks: capture what the core sends and saves ---- */
static uint8_t out_buf[1 << 20];
static size_t out_len;
static die_config_t saved_cfg;
static int saves;

void die_port_send(const uint8_t *wire, uint8_t len)
{
    if (out_len + len <= sizeof(out_buf)) {
        memcpy(out_buf + out_len, wire, len);
        out_len += len;
    }
}

void die_port_save(const die_config_t *cfg)
{
    saved_cfg = *cfg;
    saves++;
}

/* ---- decoding the core's output with the core's own frame receiver ---- */
typedef struct {
    uint8_t p[FRAME_MAX_PAYLOAD + 2];
    uint8_t len;
} msg_t;

static msg_t msgs[20000];
static int n_msgs;
static size_t decoded_upto;

static void decode_output(void)
{
    static frame_rx_t rx;
    if (decoded_upto == 0) {
        frame_rx_init(&rx);
        n_msgs = 0;
    }
    for (; decoded_upto < out_len; decoded_upto++) {
        uint8_t n = frame_rx_byte(&rx, out_buf[decoded_upto]);
        if (n && n_msgs < (int)(sizeof(msgs) / sizeof(msgs[0]))) {
            memcpy(msgs[n_msgs].p, rx.payload, n);
            msgs[n_msgs].len = n;
            n_msgs++;
        }
    }
}

static void reset_output(void)
{
    out_len = 0;
    decoded_upto = 0;
    n_msgs = 0;
}

static int u16(const uint8_t *p) { return p[0] | (p[1] << 8); }
static int s16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | (p[1] << 8)); }

/* The named fields of a payload, the way PROTOCOL.md lays them out. */
static int field(const uint8_t *p, uint8_t len, const char *key, long *val)
{
    uint8_t t = p[1];
#define F(name, expr, need)                    \
    if (strcmp(key, name) == 0 && len >= need) { \
        *val = (expr);                         \
        return 1;                              \
    }
    F("type", t, 2);
    F("seq", p[2], 3);
    if (t == MSG_READING) {
        F("die", u16(p + 3), 5);
        F("state", p[5], 6);
        F("face", p[6], 7);
        F("roll", u16(p + 7), 9);
        F("battery", p[9], 10);
        F("colour", p[10], 11);
    } else if (t == MSG_INFO) {
        F("die", u16(p + 3), 5);
        F("colour", p[5], 6);
        F("firmware", p[6], 7);
        F("mask", p[7], 8);
        F("mv", u16(p + 8), 10);
        F("tick_hz", p[10], 11);
    } else if (t == MSG_ACK) {
        F("command", p[3], 4);
        F("command_seq", p[4], 5);
        F("status", p[5], 6);
    } else if (t == MSG_SAMPLE) {
        F("x", s16(p + 3), 5);
        F("y", s16(p + 5), 7);
        F("z", s16(p + 7), 9);
    } else if (t >= 0x80) {
        F("target", u16(p + 3), 5);
    }
#undef F
    return 0;
}

static int unhex(const char *s, uint8_t *out, int cap)
{
    if (strcmp(s, "-") == 0) {
        return 0;
    }
    int n = 0;
    for (; s[0] && s[1]; s += 2) {
        unsigned v;
        if (n >= cap || sscanf(s, "%2x", &v) != 1) {
            return -1;
        }
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void feed_all(die_t *d, const uint8_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        die_rx_byte(d, b[i]);
    }
}

static const msg_t *find_ack(uint8_t cmd, uint8_t cmd_seq)
{
    decode_output();
    for (int i = 0; i < n_msgs; i++) {
        if (msgs[i].p[1] == MSG_ACK && msgs[i].p[3] == cmd && msgs[i].p[4] == cmd_seq) {
            return &msgs[i];
        }
    }
    return NULL;
}

/* A command vector sent to a freshly booted die: it must be acknowledged, and take effect. */
static void command_effect(const char *name, const uint8_t *payload, const uint8_t *wire, int wn)
{
    static die_t d;
    reset_output();
    saves = 0;
    die_init(&d, NULL, 0);
    if (u16(payload + 3) != DIE_ID_ANY) {
        d.cfg.die_id = (uint16_t)u16(payload + 3); /* as if set-id had run before */
    }
    feed_all(&d, wire, wn);
    const msg_t *ack = find_ack(payload[1], payload[2]);
    /* A die just booted has not been at rest yet, so it cannot calibrate a face. */
    int want = (payload[1] == CMD_CALIBRATE && payload[5] != 0) ? ACK_MOVING : ACK_OK;
    check(ack && ack->p[5] == want, "%s: acknowledged with status %d", name, want);
    switch (payload[1]) {
    case CMD_STATUS:
        check(n_msgs >= 1 && msgs[n_msgs - 1].p[1] == MSG_INFO, "%s: INFO follows the ACK", name);
        break;
    case CMD_BLINK: {
        int on = 0;
        die_vec_t flat = {0, 0, DIE_ONE_G};
        for (int i = 0; i < 100; i++) {
            on += die_led(&d);
            die_tick(&d, flat);
        }
        check(on == payload[5] * 5, "%s: LED on %d ticks for %d blinks", name, on, payload[5]);
        break;
    }
    case CMD_SET_ID:
        check(d.cfg.die_id == u16(payload + 5) && saves == 1 && saved_cfg.die_id == d.cfg.die_id &&
                  die_config_valid(&saved_cfg),
              "%s: id %d kept in a valid EEPROM image", name, u16(payload + 5));
        decode_output();
        check(n_msgs > 0 && msgs[n_msgs - 1].p[1] == MSG_READING &&
                  u16(msgs[n_msgs - 1].p + 3) == u16(payload + 5),
              "%s: the next reading carries the new id", name);
        break;
    case CMD_SET_COLOUR:
        check(d.cfg.colour == payload[5] && saves == 1, "%s: colour %d saved", name, payload[5]);
        break;
    case CMD_STREAM: {
        size_t before = out_len;
        die_vec_t flat = {0, 0, DIE_ONE_G};
        die_tick(&d, flat);
        decode_output();
        check(out_len > before && msgs[n_msgs - 1].p[1] == MSG_SAMPLE &&
                  s16(msgs[n_msgs - 1].p + 7) == DIE_ONE_G,
              "%s: each tick sends its sample", name);
        break;
    }
    default:
        break;
    }
}

static void run_vectors(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        check(0, "open %s", path);
        return;
    }
    char line[2048];
    while (fgets(line, sizeof(line), f)) {
        char *kind = strtok(line, " \t\r\n");
        if (!kind || kind[0] == '#') {
            continue;
        }
        char *name = strtok(NULL, " \t\r\n");
        char *a = strtok(NULL, " \t\r\n");
        char *b = strtok(NULL, " \t\r\n");
        uint8_t x[256], y[256], z[256];
        int xn = a ? unhex(a, x, sizeof(x)) : -1;
        int yn = b ? unhex(b, y, sizeof(y)) : -1;
        if (strcmp(kind, "crc") == 0) {
            check(yn == 2 && crc16_ccitt(x, (uint8_t)xn) == ((y[0] << 8) | y[1]), "crc %s", name);
        } else if (strcmp(kind, "cobs") == 0) {
            int zn = cobs_encode(x, (uint8_t)xn, z);
            check(zn == yn && memcmp(z, y, (size_t)yn) == 0, "cobs encode %s", name);
            zn = cobs_decode(y, (uint8_t)yn, z);
            check(zn == xn && memcmp(z, x, (size_t)xn) == 0, "cobs decode %s", name);
        } else if (strcmp(kind, "frame") == 0) {
            int zn = frame_encode(x, (uint8_t)xn, z);
            check(zn == yn && memcmp(z, y, (size_t)yn) == 0, "frame encode %s", name);
            frame_rx_t rx;
            frame_rx_init(&rx);
            int got = 0;
            for (int i = 0; i < yn; i++) {
                got = frame_rx_byte(&rx, y[i]);
            }
            check(got == xn && memcmp(rx.payload, x, (size_t)xn) == 0, "frame decode %s", name);
            char *kv;
            int fields_ok = 1;
            while ((kv = strtok(NULL, " \t\r\n")) != NULL) {
                char key[32];
                long want, have;
                if (strncmp(kv, "arg=", 4) == 0) {
                    uint8_t arg[16];
                    int an = unhex(kv + 4, arg, sizeof(arg));
                    fields_ok &= an == xn - 5 && memcmp(arg, x + 5, (size_t)an) == 0;
                } else if (sscanf(kv, "%31[^=]=%ld", key, &want) == 2) {
                    fields_ok &= field(x, (uint8_t)xn, key, &have) && have == want;
                } else {
                    fields_ok = 0;
                }
            }
            check(fields_ok, "frame fields %s", name);
            if (x[1] >= 0x80) {
                command_effect(name, x, y, yn);
            }
        } else if (strcmp(kind, "bad") == 0) {
            frame_rx_t rx;
            frame_rx_init(&rx);
            int got = 0;
            for (int i = 0; i < xn; i++) {
                got |= frame_rx_byte(&rx, x[i]);
            }
            check(got == 0 && rx.bad_frames >= 1, "bad frame rejected: %s", name);
        } else if (strcmp(kind, "stream") == 0) {
            long want = strtol(b, NULL, 10);
            frame_rx_t rx;
            frame_rx_init(&rx);
            long good = 0;
            for (int i = 0; i < xn; i++) {
                good += frame_rx_byte(&rx, x[i]) ? 1 : 0;
            }
            check(good == want, "stream %s: %ld good frames (want %ld)", name, good, want);
        } else {
            check(0, "unknown vector kind %s", kind);
        }
    }
    fclose(f);
}

/* ---- traces ---- */
#define MAX_EXPECT 64

static int collapse_readings(char out[][48], int cap)
{
    decode_output();
    int n = 0;
    for (int i = 0; i < n_msgs; i++) {
        const uint8_t *p = msgs[i].p;
        if (p[1] != MSG_READING) {
            continue;
        }
        char s[48];
        switch (p[5]) {
        case DIE_ROLLING: snprintf(s, sizeof(s), "rolling"); break;
        case DIE_SETTLED: snprintf(s, sizeof(s), "settled face=%d roll=%d", p[6], u16(p + 7)); break;
        case DIE_COCKED: snprintf(s, sizeof(s), "cocked roll=%d", u16(p + 7)); break;
        default: snprintf(s, sizeof(s), "unsure"); break;
        }
        if (n == 0 || strcmp(out[n - 1], s) != 0) {
            if (n < cap) {
                strcpy(out[n], s);
            }
            n++;
        }
    }
    return n;
}

static void run_trace(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        check(0, "open %s", path);
        return;
    }
    static char expect[MAX_EXPECT][48];
    static char got[MAX_EXPECT][48];
    int n_expect = 0;
    static die_t d;
    reset_output();
    die_init(&d, NULL, 3900);
    char line[256];
    long samples = 0;
    while (fgets(line, sizeof(line), f)) {
        int ax, ay, az;
        if (strncmp(line, "# expect: ", 10) == 0 && n_expect < MAX_EXPECT) {
            line[strcspn(line, "\r\n")] = 0;
            strcpy(expect[n_expect++], line + 10);
        } else if (sscanf(line, "%d,%d,%d", &ax, &ay, &az) == 3) {
            die_vec_t a = {(int16_t)ax, (int16_t)ay, (int16_t)az};
            die_tick(&d, a);
            samples++;
        }
    }
    fclose(f);
    int n_got = collapse_readings(got, MAX_EXPECT);
    int same = n_got == n_expect;
    for (int i = 0; same && i < n_got; i++) {
        same = strcmp(got[i], expect[i]) == 0;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    check(same, "trace %s: %ld samples, %d readings as expected", base, samples, n_expect);
    if (!same) {
        for (int i = 0; i < n_got || i < n_expect; i++) {
            printf("#   %-28s %s\n", i < n_expect ? expect[i] : "-", i < n_got ? got[i] : "-");
        }
    }
    /* Every reading carries the battery the board measured: 3.9 V is 75 %. */
    int battery_ok = 1;
    for (int i = 0; i < n_msgs; i++) {
        if (msgs[i].p[1] == MSG_READING && i > 1) {
            battery_ok &= msgs[i].p[9] == 75;
        }
    }
    check(battery_ok, "trace %s: battery 75%% in every reading", base);
}

/* ---- calibration on a die whose sensor is mounted crooked ---- */
static die_vec_t mounted(int face, double deg)
{
    /* Default normal of the face, rotated by deg about (1, 1, 0): a sensor glued in skew. */
    const die_config_t *c;
    static die_config_t def;
    die_default_config(&def);
    c = &def;
    double v[3] = {c->normal[face - 1].x / 1024.0, c->normal[face - 1].y / 1024.0,
                   c->normal[face - 1].z / 1024.0};
    double k[3] = {M_SQRT1_2, M_SQRT1_2, 0};
    double th = deg * M_PI / 180, ct = cos(th), st = sin(th);
    double kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    double kx[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]};
    die_vec_t r;
    r.x = (int16_t)lround((v[0] * ct + kx[0] * st + k[0] * kv * (1 - ct)) * DIE_ONE_G);
    r.y = (int16_t)lround((v[1] * ct + kx[1] * st + k[1] * kv * (1 - ct)) * DIE_ONE_G);
    r.z = (int16_t)lround((v[2] * ct + kx[2] * st + k[2] * kv * (1 - ct)) * DIE_ONE_G);
    return r;
}

static void shake_then_rest(die_t *d, die_vec_t rest)
{
    for (int i = 0; i < 20; i++) {
        die_vec_t a = {(int16_t)((i % 3) * 9000 - 9000), (int16_t)((i % 2) * 12000), 4000};
        die_tick(d, a);
    }
    for (int i = 0; i < 40; i++) {
        die_vec_t a = {(int16_t)(rest.x + (i % 3) * 30), rest.y, (int16_t)(rest.z - (i % 2) * 30)};
        die_tick(d, a);
    }
}

static void send_cmd(die_t *d, uint8_t type, uint8_t seq, const uint8_t *args, uint8_t nargs)
{
    uint8_t p[16] = {DIE_PROTOCOL_VERSION, type, seq, 0xFF, 0xFF};
    memcpy(p + 5, args, nargs);
    uint8_t wire[FRAME_MAX_WIRE];
    uint8_t n = frame_encode(p, (uint8_t)(5 + nargs), wire);
    feed_all(d, wire, n);
}

static int ack_status(uint8_t type, uint8_t seq)
{
    const msg_t *m = find_ack(type, seq);
    return m ? m->p[5] : -1;
}

static void test_calibration(void)
{
    static die_t d;
    reset_output();
    saves = 0;
    die_init(&d, NULL, 0);
    const double skew = 28.0;
    shake_then_rest(&d, mounted(1, skew));
    check(d.state == DIE_COCKED, "skewed sensor, uncalibrated: face 1 up reads as cocked");

    shake_then_rest(&d, mounted(1, skew));
    uint8_t face = 2;
    send_cmd(&d, CMD_CALIBRATE, 40, &face, 1);
    check(ack_status(CMD_CALIBRATE, 40) == ACK_OK, "calibrating face 2 first is allowed");
    face = 1;
    send_cmd(&d, CMD_CALIBRATE, 41, &face, 1);
    check(ack_status(CMD_CALIBRATE, 41) == ACK_TOO_CLOSE,
          "the same side again for face 1 is refused (die not turned)");
    face = 0;
    send_cmd(&d, CMD_CALIBRATE, 42, &face, 1);
    check(ack_status(CMD_CALIBRATE, 42) == ACK_OK && d.cfg.cal_mask == 0, "face 0 resets");

    for (int f = 1; f <= 6; f++) {
        shake_then_rest(&d, mounted(f, skew));
        uint8_t arg = (uint8_t)f;
        send_cmd(&d, CMD_CALIBRATE, (uint8_t)(50 + f), &arg, 1);
        check(ack_status(CMD_CALIBRATE, (uint8_t)(50 + f)) == ACK_OK && d.state == DIE_SETTLED &&
                  d.face == f,
              "calibrate face %d: acknowledged, and the die now reads %d", f, f);
    }
    check(d.cfg.cal_mask == 0x3F && saves >= 6, "all six faces calibrated and saved");

    for (int i = 0; i < 10; i++) {
        die_vec_t a = {(int16_t)(i * 3000), -9000, 2000};
        die_tick(&d, a);
    }
    face = 3;
    send_cmd(&d, CMD_CALIBRATE, 60, &face, 1);
    check(ack_status(CMD_CALIBRATE, 60) == ACK_MOVING, "calibrating while rolling is refused");

    /* Power cycle: the EEPROM image brings the calibration back. */
    die_config_t eeprom = saved_cfg;
    die_init(&d, &eeprom, 0);
    int right = 1;
    for (int f = 6; f >= 1; f--) {
        shake_then_rest(&d, mounted(f, skew));
        right &= d.state == DIE_SETTLED && d.face == f;
    }
    check(right, "after a power cycle every face still reads right");

    eeprom.normal[2].x ^= 0x40;
    die_init(&d, &eeprom, 0);
    check(d.cfg.cal_mask == 0 && d.cfg.die_id == DIE_ID_UNSET,
          "a corrupt EEPROM image falls back to the factory table");
}

static void test_helpers(void)
{
    check(die_isqrt32(0) == 0 && die_isqrt32(16384UL * 16384UL) == 16384 &&
              die_isqrt32(3UL * 32768UL * 32768UL) == 56755 && die_isqrt32(99) == 9,
          "integer square root");
    check(die_battery_pct(3300) == 0 && die_battery_pct(3900) == 75 &&
              die_battery_pct(4200) == 100 && die_battery_pct(3650) == 25 &&
              die_battery_pct(5000) == 255 && die_battery_pct(0) == 255,
          "battery percentage from millivolts");
}

static void test_lost_byte_on_command_line(void)
{
    /* Host -> die: a command with a byte lost is ignored, the next one is obeyed. */
    static die_t d;
    reset_output();
    die_init(&d, NULL, 0);
    uint8_t p[7] = {DIE_PROTOCOL_VERSION, CMD_SET_ID, 1, 0xFF, 0xFF, 9, 0};
    uint8_t wire[FRAME_MAX_WIRE];
    uint8_t n = frame_encode(p, 7, wire);
    feed_all(&d, wire, 4);
    feed_all(&d, wire + 5, (int)n - 5);
    check(d.cfg.die_id == DIE_ID_UNSET && ack_status(CMD_SET_ID, 1) == -1,
          "a command missing a byte is dropped, not half-obeyed");
    p[2] = 2;
    n = frame_encode(p, 7, wire);
    feed_all(&d, wire, n);
    check(d.cfg.die_id == 9 && ack_status(CMD_SET_ID, 2) == ACK_OK, "the next command works");
    p[0] = 2;
    p[2] = 3;
    n = frame_encode(p, 7, wire);
    feed_all(&d, wire, n);
    check(ack_status(CMD_SET_ID, 3) == ACK_BAD_VERSION && d.cfg.die_id == 9,
          "a command from a newer protocol is refused with BAD_VERSION");
    p[0] = 1;
    p[2] = 4;
    p[3] = 5;
    p[4] = 0;
    n = frame_encode(p, 7, wire);
    feed_all(&d, wire, n);
    check(ack_status(CMD_SET_ID, 4) == -1, "a command for die 5 is ignored by die 9");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTORS [TRACE.csv...]\n", argv[0]);
        return 2;
    }
    test_helpers();
    run_vectors(argv[1]);
    for (int i = 2; i < argc; i++) {
        run_trace(argv[i]);
    }
    test_calibration();
    test_lost_byte_on_command_line();
    printf("1..%d\n# %d passed, %d failed\n", n_tests, n_tests - n_failed, n_failed);
    return n_failed ? 1 : 0;
}
