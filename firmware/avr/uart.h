/* USART0 on the ATmega328P: interrupt-driven, so the main loop never waits for a slow line.
 * The same pins reach the USB adapter on a Nano and the HM-10 on a Pro Mini. */
#ifndef DIE_UART_H
#define DIE_UART_H

#include <stdbool.h>
#include <stdint.h>

void uart_init(void);
/* Queue bytes for sending; waits only when the 64-byte queue is full. */
void uart_write(const uint8_t *data, uint8_t len);
bool uart_read(uint8_t *byte);
/* Wait until every queued byte has left the shift register. */
void uart_flush(void);

#endif
