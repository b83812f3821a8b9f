#include "twi.h"

#include <avr/io.h>
#include <util/twi.h>

#define TWI_HZ 400000UL
#define SPINS 2000u /* a byte at 400 kHz is ~23 us; this is a few ms at worst */

void twi_init(void)
{
    TWSR = 0; /* prescaler 1 */
    TWBR = (uint8_t)((F_CPU / TWI_HZ - 16UL) / 2UL);
    TWCR = _BV(TWEN);
}

static bool wait(void)
{
    for (uint16_t i = 0; i < SPINS; i++) {
        if (TWCR & _BV(TWINT)) {
            return true;
        }
    }
    return false;
}

static bool start(uint8_t sla, uint8_t want)
{
    TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN);
    if (!wait() || (TW_STATUS != TW_START && TW_STATUS != TW_REP_START)) {
        return false;
    }
    TWDR = sla;
    TWCR = _BV(TWINT) | _BV(TWEN);
    return wait() && TW_STATUS == want;
}

static bool send(uint8_t b)
{
    TWDR = b;
    TWCR = _BV(TWINT) | _BV(TWEN);
    return wait() && TW_STATUS == TW_MT_DATA_ACK;
}

static void stop(void)
{
    TWCR = _BV(TWINT) | _BV(TWSTO) | _BV(TWEN);
}

bool twi_write_reg(uint8_t addr, uint8_t reg, uint8_t value)
{
    bool ok = start((uint8_t)(addr << 1), TW_MT_SLA_ACK) && send(reg) && send(value);
    stop();
    return ok;
}

bool twi_read_regs(uint8_t addr, uint8_t reg, uint8_t *buf, uint8_t len)
{
    bool ok = start((uint8_t)(addr << 1), TW_MT_SLA_ACK) && send(reg) &&
              start((uint8_t)((addr << 1) | 1u), TW_MR_SLA_ACK);
    for (uint8_t i = 0; ok && i < len; i++) {
        bool last = i + 1u == len;
        TWCR = _BV(TWINT) | _BV(TWEN) | (last ? 0 : _BV(TWEA));
        ok = wait() && TW_STATUS == (last ? TW_MR_DATA_NACK : TW_MR_DATA_ACK);
        buf[i] = TWDR;
    }
    stop();
    return ok;
}
