/* Where acceleration samples come from: the MPU-6050 (mpu6050.c) on a real die, or a trace
 * stored in flash (accel_replay.c) in the replay build that runs under simavr. */
#ifndef DIE_ACCEL_H
#define DIE_ACCEL_H

#include <stdbool.h>

#include "die_core.h"

bool accel_init(void);
/* false: no sample (sensor not answering), or in the replay build, the trace has ended. */
bool accel_read(die_vec_t *out);

#endif
