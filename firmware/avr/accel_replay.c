/* Replay build: samples come from a recorded trace in flash instead of the sensor, so the real
 * firmware (core, UART, timer, ADC, EEPROM) can be run under simavr and checked roll by roll. */
#include <avr/pgmspace.h>

#include "accel.h"

extern const int16_t replay_trace[][3] PROGMEM;
extern const uint16_t replay_len;

static uint16_t next;

bool accel_init(void)
{
    next = 0;
    return true;
}

bool accel_read(die_vec_t *out)
{
    if (next >= replay_len) {
        return false;
    }
    out->x = (int16_t)pgm_read_word(&replay_trace[next][0]);
    out->y = (int16_t)pgm_read_word(&replay_trace[next][1]);
    out->z = (int16_t)pgm_read_word(&replay_trace[next][2]);
    next++;
    return true;
}
