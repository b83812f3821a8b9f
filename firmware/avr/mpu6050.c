/* MPU-6050 (GY-521 breakout) at its default address, accelerometer only: +-2 g, 44 Hz low-pass,
 * which also smooths the 50 Hz sampling. The gyro would cost power and adds nothing here. */
#include "accel.h"
#include "twi.h"

#define MPU_ADDR 0x68 /* AD0 low */
#define REG_CONFIG 0x1A
#define REG_ACCEL_CONFIG 0x1C
#define REG_ACCEL_XOUT_H 0x3B
#define REG_PWR_MGMT_1 0x6B
#define REG_PWR_MGMT_2 0x6C
#define REG_WHO_AM_I 0x75

bool accel_init(void)
{
    uint8_t who = 0;
    twi_init();
    return twi_read_regs(MPU_ADDR, REG_WHO_AM_I, &who, 1) && who == 0x68 &&
           twi_write_reg(MPU_ADDR, REG_PWR_MGMT_1, 0x08) &&  /* awake, temp sensor off */
           twi_write_reg(MPU_ADDR, REG_PWR_MGMT_2, 0x07) &&  /* gyro axes in standby */
           twi_write_reg(MPU_ADDR, REG_CONFIG, 0x03) &&      /* DLPF 44 Hz */
           twi_write_reg(MPU_ADDR, REG_ACCEL_CONFIG, 0x00);  /* +-2 g: 16384 counts per g */
}

bool accel_read(die_vec_t *out)
{
    uint8_t b[6];
    if (!twi_read_regs(MPU_ADDR, REG_ACCEL_XOUT_H, b, sizeof(b))) {
        return false;
    }
    out->x = (int16_t)((uint16_t)b[0] << 8 | b[1]);
    out->y = (int16_t)((uint16_t)b[2] << 8 | b[3]);
    out->z = (int16_t)((uint16_t)b[4] << 8 | b[5]);
    return true;
}
