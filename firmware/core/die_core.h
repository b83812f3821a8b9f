/* The die's brain, with no board dependency: top face from the acceleration vector, settle
 * detection with hysteresis, the roll counter, battery level and the host's commands.
 *
 * The board (avr/main.c) or a host test feeds it one accelerometer sample per tick at
 * DIE_TICK_HZ and bytes received from the host; it answers through two hooks the board
 * provides: die_port_send() for wire frames and die_port_save() for the EEPROM copy of the
 * configuration. Keeping I/O behind those hooks is what lets the same file be tested on
 * recorded traces on the host and run unchanged on the ATmega328P.
 */
#ifndef DIE_CORE_H
#define DIE_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "frame.h"

#define DIE_PROTOCOL_VERSION 1u
#define DIE_FIRMWARE_VERSION 0x01u /* major << 4 | minor: 0.1 */
#define DIE_TICK_HZ 50u
#define DIE_ONE_G 16384 /* MPU-6050 counts per g at its +-2 g range */
#define DIE_NORMAL_Q 1024 /* face normals are stored as vectors of this length */
#define DIE_ID_UNSET 0u
#define DIE_ID_ANY 0xFFFFu

/* Message types (PROTOCOL.md). Die -> host below 0x80, host -> die from 0x80. */
enum {
    MSG_READING = 0x01,
    MSG_INFO = 0x02,
    MSG_ACK = 0x03,
    MSG_SAMPLE = 0x04,
    CMD_STATUS = 0x81,
    CMD_BLINK = 0x82,
    CMD_CALIBRATE = 0x83,
    CMD_SET_ID = 0x84,
    CMD_SET_COLOUR = 0x85,
    CMD_STREAM = 0x86,
};

typedef enum {
    DIE_ROLLING = 0,
    DIE_SETTLED = 1,
    DIE_COCKED = 2,
    DIE_UNSURE = 3, /* just booted: not yet seen at rest */
} die_state_t;

enum {
    ACK_OK = 0,
    ACK_BAD_ARGUMENT = 1,
    ACK_MOVING = 2,    /* calibration needs the die at rest */
    ACK_TOO_CLOSE = 3, /* calibration vector within 45 degrees of another calibrated face */
    ACK_UNKNOWN_COMMAND = 4,
    ACK_BAD_VERSION = 5,
};

#define DIE_COLOUR_MAX 10u /* PROTOCOL.md lists the names; 0 means not set */

typedef struct {
    int16_t x, y, z;
} die_vec_t;

/* What survives power-off (EEPROM). Fixed layout, no padding on AVR or x86-64. */
typedef struct {
    uint8_t magic;
    uint8_t layout;
    uint16_t die_id;
    uint8_t colour;
    uint8_t cal_mask; /* bit f-1 set: face f was calibrated on this die */
    die_vec_t normal[6]; /* gravity as the sensor reads it with face f up, length DIE_NORMAL_Q */
    uint16_t crc;
} die_config_t;

typedef struct {
    die_config_t cfg;
    frame_rx_t rx;
    uint8_t state;
    uint8_t face; /* 1..6 when SETTLED, else 0 */
    uint16_t roll;
    uint16_t battery_mv;
    uint8_t battery_pct; /* 0..100, 255 = unknown or external power */
    uint8_t tx_seq;
    /* motion tracking */
    die_vec_t prev;
    bool have_prev;
    uint8_t busy_run;
    bool busy_hard;
    uint8_t still_run;
    die_vec_t block_first;
    int32_t sum[3];
    die_vec_t rest;   /* mean acceleration over the window that ended the last motion */
    die_vec_t rest_n; /* the same, scaled to DIE_NORMAL_Q */
    bool have_rest;
    uint8_t start_state;
    uint8_t start_face;
    bool tumbled;
    uint8_t since_report;
    uint16_t blink_ticks;
    bool stream;
} die_t;

/* stored may be NULL or hold garbage: a bad magic or CRC falls back to factory defaults.
 * battery_mv is the supply measured at boot (0 if unknown), so the hello INFO carries it. */
void die_init(die_t *d, const die_config_t *stored, uint16_t battery_mv);
void die_tick(die_t *d, die_vec_t accel);
void die_rx_byte(die_t *d, uint8_t byte);
void die_set_battery_mv(die_t *d, uint16_t mv);
bool die_led(const die_t *d);

/* Pure helpers, exposed for the tests. */
uint8_t die_battery_pct(uint16_t mv);
uint16_t die_isqrt32(uint32_t v);
void die_default_config(die_config_t *cfg);
bool die_config_valid(const die_config_t *cfg);
void die_config_seal(die_config_t *cfg);

/* Hooks the board provides. */
void die_port_send(const uint8_t *wire, uint8_t len);
void die_port_save(const die_config_t *cfg);

#endif
