/* TWI (I2C) master for the MPU-6050. Every wait has a limit: a loose sensor wire must not
 * hang the die, it must show up as a failed read. */
#ifndef DIE_TWI_H
#define DIE_TWI_H

#include <stdbool.h>
#include <stdint.h>

void twi_init(void);
bool twi_write_reg(uint8_t addr, uint8_t reg, uint8_t value);
bool twi_read_regs(uint8_t addr, uint8_t reg, uint8_t *buf, uint8_t len);

#endif
