/* Run the die's AVR firmware under simavr and write the bytes its UART sends, exactly, to
 * stdout. The simavr command-line tool prints UART output a line at a time with colour codes and
 * shows non-printable bytes as '.', which destroys binary frames; this harness attaches to the
 * UART's output IRQ instead.
 *
 * usage: die_sim [options] FIRMWARE.elf > uart.bin
 *   -m MCU        (atmega328p)     -f HZ       clock (16000000)
 *   -v MV         supply voltage in millivolts, seen by the ADC (3900)
 *   -t MS         give up after this many simulated milliseconds (60000)
 *   -r MS:HEX     at MS simulated milliseconds, send HEX bytes into the UART (repeatable)
 * Exit status: 0 when the firmware stopped itself (sleep with interrupts off), 3 when it
 * crashed, 4 when the time limit was reached, 2 on a usage or load error. A summary goes to
 * stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_time.h>

#define MAX_RX 32

typedef struct {
    uint32_t at_ms;
    uint8_t bytes[128];
    int len;
    int sent;
} rx_job_t;

static rx_job_t jobs[MAX_RX];
static FILE *uart_out; /* the real stdout: simavr's loader prints its own chatter on fd 1 */
static int n_jobs;
static avr_irq_t *uart_in;
static unsigned long out_bytes;

static void on_uart_byte(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    fputc((int)(value & 0xFF), uart_out);
    out_bytes++;
}

/* Feed a job one byte at a time, a byte-time apart at 115200 baud, so the firmware's RX FIFO
 * sees a realistic line rather than a burst. */
static avr_cycle_count_t feed_job(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    rx_job_t *job = param;
    (void)when;
    if (job->sent >= job->len) {
        return 0;
    }
    avr_raise_irq(uart_in, job->bytes[job->sent++]);
    return job->sent < job->len ? when + avr_usec_to_cycles(avr, 90) : 0;
}

/* simavr's default sleep handler waits in real time; a test wants simulated time only. */
static void no_sleep(struct avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr;
    (void)how_long;
}

static int parse_job(const char *arg)
{
    if (n_jobs >= MAX_RX) {
        return -1;
    }
    rx_job_t *job = &jobs[n_jobs];
    char *colon;
    job->at_ms = (uint32_t)strtoul(arg, &colon, 10);
    if (*colon != ':') {
        return -1;
    }
    const char *hex = colon + 1;
    job->len = 0;
    while (hex[0] && hex[1] && job->len < (int)sizeof(job->bytes)) {
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1) {
            return -1;
        }
        job->bytes[job->len++] = (uint8_t)v;
        hex += 2;
    }
    n_jobs++;
    return 0;
}

int main(int argc, char **argv)
{
    const char *mcu = "atmega328p";
    unsigned long freq = 16000000UL;
    unsigned long vcc_mv = 3900;
    unsigned long limit_ms = 60000;
    int i;
    for (i = 1; i < argc - 1; i++) {
        if (strcmp(argv[i], "-m") == 0) {
            mcu = argv[++i];
        } else if (strcmp(argv[i], "-f") == 0) {
            freq = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "-v") == 0) {
            vcc_mv = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "-t") == 0) {
            limit_ms = strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "-r") == 0) {
            if (parse_job(argv[++i]) != 0) {
                fprintf(stderr, "die_sim: bad -r %s (want MS:HEX)\n", argv[i]);
                return 2;
            }
        } else {
            break;
        }
    }
    if (i != argc - 1) {
        fprintf(stderr, "usage: die_sim [-m MCU] [-f HZ] [-v MV] [-t MS] [-r MS:HEX]... FIRMWARE.elf\n");
        return 2;
    }

    int out_fd = dup(1);
    uart_out = out_fd >= 0 ? fdopen(out_fd, "wb") : NULL;
    if (!uart_out || dup2(2, 1) < 0) {
        fprintf(stderr, "die_sim: cannot set up stdout\n");
        return 2;
    }

    elf_firmware_t fw;
    memset(&fw, 0, sizeof(fw));
    if (elf_read_firmware(argv[i], &fw) != 0) {
        fprintf(stderr, "die_sim: cannot read %s\n", argv[i]);
        return 2;
    }
    avr_t *avr = avr_make_mcu_by_name(mcu);
    if (!avr) {
        fprintf(stderr, "die_sim: unknown MCU %s\n", mcu);
        return 2;
    }
    avr_init(avr);
    avr->log = LOG_ERROR;
    fw.frequency = (uint32_t)freq;
    avr_load_firmware(avr, &fw);
    avr->frequency = (uint32_t)freq;
    avr->vcc = avr->avcc = (uint32_t)vcc_mv;
    avr->aref = (uint32_t)vcc_mv;
    avr->sleep = no_sleep;

    /* No console echo, no host sleeping while the firmware polls: raw bytes, full speed. */
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_byte, NULL);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    for (int j = 0; j < n_jobs; j++) {
        avr_cycle_timer_register(avr, avr_usec_to_cycles(avr, jobs[j].at_ms * 1000UL), feed_job,
                                 &jobs[j]);
    }

    avr_cycle_count_t limit = avr_usec_to_cycles(avr, limit_ms * 1000UL);
    int state = cpu_Running;
    while (state != cpu_Done && state != cpu_Crashed && avr->cycle < limit) {
        state = avr_run(avr);
    }
    fflush(uart_out);
    double ms = (double)avr->cycle * 1000.0 / (double)freq;
    fprintf(stderr, "die_sim: %s after %.1f simulated ms, %lu UART bytes\n",
            state == cpu_Done ? "stopped" : state == cpu_Crashed ? "CRASHED" : "TIME LIMIT", ms,
            out_bytes);
    return state == cpu_Done ? 0 : state == cpu_Crashed ? 3 : 4;
}
