/* The die on an ATmega328P (Arduino Nano or Pro Mini): a 50 Hz tick reads the accelerometer
 * and hands the sample to the portable core; bytes from the host go to the core too; the core's
 * frames go out on the UART. Between ticks the CPU sleeps (idle), which matters on a battery. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#include "accel.h"
#include "die_core.h"
#include "uart.h"

#ifndef TICK_US
#define TICK_US 20000UL /* 1 / DIE_TICK_HZ; the replay build runs time faster */
#endif
#define BATTERY_EVERY 250u /* ticks: 5 s */
#define LED_DDR DDRB
#define LED_PORT PORTB
#define LED_BIT PB5 /* D13, the board's own LED; an outside LED goes on the same pin */

static die_t die;
static volatile uint8_t ticks_due;
static die_config_t EEMEM ee_config;

ISR(TIMER1_COMPA_vect)
{
    if (ticks_due < 255u) {
        ticks_due++;
    }
}

void die_port_send(const uint8_t *wire, uint8_t len)
{
    uart_write(wire, len);
}

void die_port_save(const die_config_t *cfg)
{
    /* update, not write: unchanged bytes cost no EEPROM wear */
    eeprom_update_block(cfg, &ee_config, sizeof(*cfg));
}

static void timer_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11); /* CTC, clock / 8 */
    OCR1A = (uint16_t)((F_CPU / 8UL / 1000UL) * TICK_US / 1000UL - 1UL);
    TIMSK1 = _BV(OCIE1A);
}

/* VCC in millivolts, from the 1.1 V band-gap measured against VCC: no divider, no pin. On the
 * Pro Mini the LiPo feeds VCC directly (hardware.md), so this is the battery. */
static uint16_t battery_mv(void)
{
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
    ADMUX = _BV(REFS0) | 0x0E;
    for (uint8_t i = 0; i < 2; i++) { /* the first conversion after switching is off */
        ADCSRA |= _BV(ADSC);
        while (ADCSRA & _BV(ADSC)) {
        }
    }
    uint16_t adc = ADC;
    ADCSRA = 0; /* the ADC draws current: off until next time */
    return adc ? (uint16_t)(1100UL * 1023UL / adc) : 0u;
}

static void take_bytes(void)
{
    uint8_t b;
    while (uart_read(&b)) {
        die_rx_byte(&die, b);
    }
}

int main(void)
{
    LED_DDR |= _BV(LED_BIT);
    uart_init();
    timer_init();
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();

    die_config_t cfg;
    eeprom_read_block(&cfg, &ee_config, sizeof(cfg));
    bool sensor = accel_init();
    die_init(&die, &cfg, battery_mv());
    uint8_t battery_in = BATTERY_EVERY;

    for (;;) {
        take_bytes();
        cli();
        if (!ticks_due) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
            continue;
        }
        ticks_due--;
        sei();

        die_vec_t a;
        if (sensor && accel_read(&a)) {
            die_tick(&die, a);
        } else {
#ifdef REPLAY
            break; /* the trace has ended */
#else
            sensor = accel_init(); /* a loose wire: keep trying, the host sees no readings */
#endif
        }
        if (die_led(&die)) {
            LED_PORT |= _BV(LED_BIT);
        } else {
            LED_PORT &= (uint8_t)~_BV(LED_BIT);
        }
        if (--battery_in == 0) {
            battery_in = BATTERY_EVERY;
            die_set_battery_mv(&die, battery_mv());
        }
    }
    /* Replay only: let the last frame out, then stop; simavr ends on sleep with interrupts off. */
    take_bytes();
    uart_flush();
    cli();
    sleep_enable();
    sleep_cpu();
    for (;;) {
    }
}
