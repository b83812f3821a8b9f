#include "die_core.h"

#include <stddef.h>
#include <string.h>

/* Thresholds, in sensor counts (16384 = 1 g) and ticks (50 Hz). The traces in traces/ are the
 * evidence for each value; change one only with a trace that shows why. */
#define JERK_STILL 800     /* |a - a_prev| summed over axes: below this a sample may be still */
#define JERK_MOVE 3000     /* above this it is certainly motion (a knock, a tumble, a throw) */
#define MAG_STILL 3277     /* 0.2 g: a die at rest reads 1 g, give or take sensor offsets */
#define MAG_MOVE 5734      /* 0.35 g: free fall or an impact */
#define MAG_TRUST 4096     /* 0.25 g: orientation is only read from samples near 1 g */
#define DRIFT_REST 2900    /* about 10 degrees away from the rest vector: the die was turned */
#define DRIFT_BLOCK 1000   /* about 3.5 degrees: a settle window must not creep */
#define START_TICKS 4      /* 80 ms of unrest, one sample hard, to leave rest: knocks are shorter */
#define SETTLE_TICKS 15    /* 300 ms still to settle */
#define COS_FLAT 1001      /* cos 12.2 degrees * 1024: flatter than this is on a face */
#define COS_TUMBLE 512     /* cos 60 degrees * 1024: turned this far, it was a roll */
#define COS_DISTINCT 724   /* cos 45 degrees * 1024: two faces' normals must differ more */
#define HEARTBEAT_TICKS 100 /* 2 s: a host that plugs in late learns the state this fast */
#define BLINK_HALF 5       /* 100 ms on, 100 ms off */
#define CONFIG_MAGIC 0xD1u
#define CONFIG_LAYOUT 1u

static int32_t abs32(int32_t v) { return v < 0 ? -v : v; }

uint16_t die_isqrt32(uint32_t v)
{
    uint32_t res = 0;
    uint32_t bit = (uint32_t)1 << 30;
    while (bit > v) {
        bit >>= 2;
    }
    while (bit != 0) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (uint16_t)res;
}

static uint32_t norm_sq(die_vec_t v)
{
    return (uint32_t)((int32_t)v.x * v.x) + (uint32_t)((int32_t)v.y * v.y) +
           (uint32_t)((int32_t)v.z * v.z);
}

static int32_t dot(die_vec_t a, die_vec_t b)
{
    /* b is always a normal of length DIE_NORMAL_Q, so this stays within int32. */
    return (int32_t)a.x * b.x + (int32_t)a.y * b.y + (int32_t)a.z * b.z;
}

static int32_t l1_dist(die_vec_t a, die_vec_t b)
{
    return abs32((int32_t)a.x - b.x) + abs32((int32_t)a.y - b.y) + abs32((int32_t)a.z - b.z);
}

static die_vec_t normalise(die_vec_t v)
{
    die_vec_t n = {0, 0, 0};
    int32_t mag = die_isqrt32(norm_sq(v));
    if (mag == 0) {
        return n;
    }
    n.x = (int16_t)((int32_t)v.x * DIE_NORMAL_Q / mag);
    n.y = (int16_t)((int32_t)v.y * DIE_NORMAL_Q / mag);
    n.z = (int16_t)((int32_t)v.z * DIE_NORMAL_Q / mag);
    return n;
}

/* cos(angle between a and the unit-Q normal n) * 1024; 0 for a zero vector. */
static int16_t cos_q(die_vec_t a, die_vec_t n)
{
    int32_t mag = die_isqrt32(norm_sq(a));
    if (mag == 0) {
        return 0;
    }
    return (int16_t)(dot(a, n) / mag);
}

uint8_t die_battery_pct(uint16_t mv)
{
    /* A 1S LiPo under a light load. Above 4.5 V the die runs from USB (a Nano on its cable). */
    static const uint16_t mv_at[] = {3300, 3600, 3700, 3800, 3900, 4000, 4200};
    static const uint8_t pct_at[] = {0, 10, 40, 60, 75, 85, 100};
    if (mv == 0 || mv >= 4500) {
        return 255;
    }
    if (mv <= mv_at[0]) {
        return 0;
    }
    for (uint8_t i = 1; i < sizeof(mv_at) / sizeof(mv_at[0]); i++) {
        if (mv <= mv_at[i]) {
            uint16_t span = mv_at[i] - mv_at[i - 1];
            uint16_t into = mv - mv_at[i - 1];
            return (uint8_t)(pct_at[i - 1] + (uint16_t)(pct_at[i] - pct_at[i - 1]) * into / span);
        }
    }
    return 100;
}

void die_config_seal(die_config_t *cfg)
{
    cfg->crc = crc16_ccitt((const uint8_t *)cfg, (uint8_t)offsetof(die_config_t, crc));
}

bool die_config_valid(const die_config_t *cfg)
{
    return cfg->magic == CONFIG_MAGIC && cfg->layout == CONFIG_LAYOUT &&
           cfg->crc == crc16_ccitt((const uint8_t *)cfg, (uint8_t)offsetof(die_config_t, crc));
}

void die_default_config(die_config_t *cfg)
{
    /* The sensor mounted square in the die: faces on the axes, opposite faces summing to 7. */
    static const die_vec_t axes[6] = {
        {0, 0, DIE_NORMAL_Q},  {0, DIE_NORMAL_Q, 0},  {DIE_NORMAL_Q, 0, 0},
        {-DIE_NORMAL_Q, 0, 0}, {0, -DIE_NORMAL_Q, 0}, {0, 0, -DIE_NORMAL_Q},
    };
    memset(cfg, 0, sizeof(*cfg));
    cfg->magic = CONFIG_MAGIC;
    cfg->layout = CONFIG_LAYOUT;
    cfg->die_id = DIE_ID_UNSET;
    memcpy(cfg->normal, axes, sizeof(axes));
    die_config_seal(cfg);
}

static void send_payload(die_t *d, uint8_t *p, uint8_t len)
{
    uint8_t wire[FRAME_MAX_WIRE];
    p[0] = DIE_PROTOCOL_VERSION;
    p[2] = d->tx_seq++;
    uint8_t n = frame_encode(p, len, wire);
    if (n) {
        die_port_send(wire, n);
    }
}

static void report(die_t *d)
{
    uint8_t p[11];
    p[1] = MSG_READING;
    p[3] = (uint8_t)d->cfg.die_id;
    p[4] = (uint8_t)(d->cfg.die_id >> 8);
    p[5] = d->state;
    p[6] = d->face;
    p[7] = (uint8_t)d->roll;
    p[8] = (uint8_t)(d->roll >> 8);
    p[9] = d->battery_pct;
    p[10] = d->cfg.colour;
    send_payload(d, p, sizeof(p));
    d->since_report = 0;
}

static void send_info(die_t *d)
{
    uint8_t p[11];
    p[1] = MSG_INFO;
    p[3] = (uint8_t)d->cfg.die_id;
    p[4] = (uint8_t)(d->cfg.die_id >> 8);
    p[5] = d->cfg.colour;
    p[6] = DIE_FIRMWARE_VERSION;
    p[7] = d->cfg.cal_mask;
    p[8] = (uint8_t)d->battery_mv;
    p[9] = (uint8_t)(d->battery_mv >> 8);
    p[10] = DIE_TICK_HZ;
    send_payload(d, p, sizeof(p));
}

static void send_ack(die_t *d, uint8_t cmd, uint8_t cmd_seq, uint8_t status)
{
    uint8_t p[6];
    p[1] = MSG_ACK;
    p[3] = cmd;
    p[4] = cmd_seq;
    p[5] = status;
    send_payload(d, p, sizeof(p));
}

static void send_sample(die_t *d, die_vec_t a)
{
    uint8_t p[9];
    p[1] = MSG_SAMPLE;
    p[3] = (uint8_t)a.x;
    p[4] = (uint8_t)((uint16_t)a.x >> 8);
    p[5] = (uint8_t)a.y;
    p[6] = (uint8_t)((uint16_t)a.y >> 8);
    p[7] = (uint8_t)a.z;
    p[8] = (uint8_t)((uint16_t)a.z >> 8);
    send_payload(d, p, sizeof(p));
}

static void blink(die_t *d, uint8_t times)
{
    d->blink_ticks = (uint16_t)times * 2u * BLINK_HALF;
}

bool die_led(const die_t *d)
{
    return d->blink_ticks > 0 && ((d->blink_ticks - 1u) / BLINK_HALF) % 2u == 1u;
}

void die_set_battery_mv(die_t *d, uint16_t mv)
{
    d->battery_mv = mv;
    d->battery_pct = die_battery_pct(mv);
}

/* Which face is up for a rest vector, or 0 when the die leans (cocked). */
static uint8_t classify(const die_t *d, die_vec_t rest)
{
    uint8_t best = 0;
    int16_t best_cos = -32767;
    for (uint8_t f = 0; f < 6; f++) {
        int16_t c = cos_q(rest, d->cfg.normal[f]);
        if (c > best_cos) {
            best_cos = c;
            best = f;
        }
    }
    return best_cos >= COS_FLAT ? (uint8_t)(best + 1u) : 0u;
}

static void set_rest(die_t *d, die_vec_t rest)
{
    d->rest = rest;
    d->rest_n = normalise(rest);
    d->have_rest = true;
    uint8_t face = classify(d, rest);
    d->face = face;
    d->state = face ? DIE_SETTLED : DIE_COCKED;
}

static void settle(die_t *d, die_vec_t mean)
{
    bool had_rest = d->have_rest;
    set_rest(d, mean);
    /* A roll is any motion except one that starts and ends on the same face without ever
     * turning far: a slide, a nudge, the die picked up and put back. */
    bool same = d->start_state == DIE_SETTLED && d->state == DIE_SETTLED &&
                d->start_face == d->face;
    if (had_rest && (d->tumbled || !same)) {
        d->roll++;
    }
    blink(d, d->state == DIE_SETTLED ? 1 : 2);
    report(d);
}

static void clear_block(die_t *d, die_vec_t a)
{
    d->still_run = 0;
    d->sum[0] = d->sum[1] = d->sum[2] = 0;
    d->block_first = a;
}

void die_init(die_t *d, const die_config_t *stored, uint16_t battery_mv)
{
    memset(d, 0, sizeof(*d));
    if (stored && die_config_valid(stored)) {
        d->cfg = *stored;
    } else {
        die_default_config(&d->cfg);
    }
    frame_rx_init(&d->rx);
    d->state = DIE_UNSURE;
    d->start_state = DIE_UNSURE;
    die_set_battery_mv(d, battery_mv);
    send_info(d);
    report(d);
}

void die_tick(die_t *d, die_vec_t a)
{
    if (!d->have_prev) {
        d->prev = a;
        d->have_prev = true;
        clear_block(d, a);
    }
    int32_t jerk = l1_dist(a, d->prev);
    d->prev = a;
    int32_t mag = die_isqrt32(norm_sq(a));
    int32_t magdev = abs32(mag - DIE_ONE_G);

    if (d->blink_ticks) {
        d->blink_ticks--;
    }
    if (d->stream) {
        send_sample(d, a);
    }

    if (d->state == DIE_SETTLED || d->state == DIE_COCKED) {
        int32_t drift = l1_dist(a, d->rest);
        bool hard = jerk > JERK_MOVE || magdev > MAG_MOVE || drift > DRIFT_REST;
        bool still = jerk < JERK_STILL && magdev < MAG_STILL && !hard;
        if (still) {
            d->busy_run = 0;
            d->busy_hard = false;
        } else {
            d->busy_run++;
            d->busy_hard = d->busy_hard || hard;
            if (d->busy_run >= START_TICKS && d->busy_hard) {
                d->start_state = d->state;
                d->start_face = d->face;
                d->tumbled = false;
                d->state = DIE_ROLLING;
                d->face = 0;
                d->busy_run = 0;
                d->busy_hard = false;
                clear_block(d, a);
                report(d);
            }
        }
    } else {
        if (d->have_rest && magdev < MAG_TRUST && cos_q(a, d->rest_n) < COS_TUMBLE) {
            d->tumbled = true;
        }
        bool still = jerk < JERK_STILL && magdev < MAG_STILL;
        if (!still || l1_dist(a, d->block_first) > DRIFT_BLOCK) {
            clear_block(d, a);
        }
        if (still) {
            d->sum[0] += a.x;
            d->sum[1] += a.y;
            d->sum[2] += a.z;
            if (++d->still_run >= SETTLE_TICKS) {
                die_vec_t mean = {(int16_t)(d->sum[0] / SETTLE_TICKS),
                                  (int16_t)(d->sum[1] / SETTLE_TICKS),
                                  (int16_t)(d->sum[2] / SETTLE_TICKS)};
                clear_block(d, a);
                settle(d, mean);
            }
        }
    }

    if (++d->since_report >= HEARTBEAT_TICKS) {
        report(d);
    }
}

static uint8_t calibrate(die_t *d, uint8_t face)
{
    if (face == 0) {
        uint16_t id = d->cfg.die_id;
        uint8_t colour = d->cfg.colour;
        die_default_config(&d->cfg);
        d->cfg.die_id = id;
        d->cfg.colour = colour;
        return ACK_OK;
    }
    if (face > 6) {
        return ACK_BAD_ARGUMENT;
    }
    if (!(d->state == DIE_SETTLED || d->state == DIE_COCKED) || !d->have_rest) {
        return ACK_MOVING;
    }
    die_vec_t n = d->rest_n;
    for (uint8_t f = 0; f < 6; f++) {
        if (f != face - 1u && (d->cfg.cal_mask & (1u << f)) &&
            dot(n, d->cfg.normal[f]) / DIE_NORMAL_Q > COS_DISTINCT) {
            return ACK_TOO_CLOSE;
        }
    }
    d->cfg.normal[face - 1u] = n;
    d->cfg.cal_mask |= (uint8_t)(1u << (face - 1u));
    return ACK_OK;
}

static void handle_command(die_t *d, const uint8_t *p, uint8_t len)
{
    if (len < 3) {
        return; /* not even a header: nothing to answer to */
    }
    uint8_t type = p[1];
    uint8_t seq = p[2];
    if (type < 0x80) {
        return; /* a die's own message looped back (echo, shared line): not for us */
    }
    if (p[0] != DIE_PROTOCOL_VERSION) {
        send_ack(d, type, seq, ACK_BAD_VERSION);
        return;
    }
    if (len < 5) {
        send_ack(d, type, seq, ACK_BAD_ARGUMENT);
        return;
    }
    uint16_t target = (uint16_t)(p[3] | ((uint16_t)p[4] << 8));
    if (target != DIE_ID_ANY && target != d->cfg.die_id) {
        return; /* addressed to another die on the same hub */
    }
    const uint8_t *arg = p + 5;
    uint8_t nargs = (uint8_t)(len - 5u);
    uint8_t status = ACK_OK;
    bool save = false;
    bool status_reply = false;
    switch (type) {
    case CMD_STATUS:
        status_reply = true;
        break;
    case CMD_BLINK:
        if (nargs < 1 || arg[0] == 0 || arg[0] > 25) {
            status = ACK_BAD_ARGUMENT;
        } else {
            blink(d, arg[0]);
        }
        break;
    case CMD_CALIBRATE:
        if (nargs < 1) {
            status = ACK_BAD_ARGUMENT;
        } else {
            status = calibrate(d, arg[0]);
            save = status == ACK_OK;
        }
        break;
    case CMD_SET_ID: {
        uint16_t id = nargs >= 2 ? (uint16_t)(arg[0] | ((uint16_t)arg[1] << 8)) : 0u;
        if (id == DIE_ID_UNSET || id == DIE_ID_ANY) {
            status = ACK_BAD_ARGUMENT;
        } else {
            d->cfg.die_id = id;
            save = true;
        }
        break;
    }
    case CMD_SET_COLOUR:
        if (nargs < 1 || arg[0] > DIE_COLOUR_MAX) {
            status = ACK_BAD_ARGUMENT;
        } else {
            d->cfg.colour = arg[0];
            save = true;
        }
        break;
    case CMD_STREAM:
        if (nargs < 1 || arg[0] > 1) {
            status = ACK_BAD_ARGUMENT;
        } else {
            d->stream = arg[0] == 1;
        }
        break;
    default:
        status = ACK_UNKNOWN_COMMAND;
        break;
    }
    if (save) {
        die_config_seal(&d->cfg);
        die_port_save(&d->cfg);
    }
    send_ack(d, type, seq, status);
    if (status_reply) {
        send_info(d);
    }
    if (save) {
        /* The new id, colour or face table shows in the next reading at once. */
        if (type == CMD_CALIBRATE && d->have_rest && d->state != DIE_ROLLING) {
            set_rest(d, d->rest);
        }
        report(d);
    }
}

void die_rx_byte(die_t *d, uint8_t byte)
{
    uint8_t n = frame_rx_byte(&d->rx, byte);
    if (n) {
        handle_command(d, d->rx.payload, n);
    }
}
