/* The die's real core on a PC: a stand-in for the hardware when testing the companion's serial
 * code and `companion die` commands, or developing without a soldering iron.
 *
 * usage: die_host [-s SPEED] [-c FD] [-b MV] [TRACE.csv]
 *   The serial line is stdin (bytes from the host) and stdout (frames to the host): run it on a
 *   pty master, or through socat, and point the companion at the other end.
 *   Ticks at 50 Hz times SPEED. Samples come from TRACE (then its last sample, held), or a die
 *   lying on face 1. FD, if given, takes control lines: "rest X Y Z" (the die is picked up,
 *   shaken and put down so the sensor reads X Y Z at rest) and "quit".
 * It exits when the line closes.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/die_core.h"

static die_t die;

void die_port_send(const uint8_t *wire, uint8_t len)
{
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(1, wire + done, len - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            exit(0); /* the line is gone */
        }
        done += (size_t)n;
    }
}

void die_port_save(const die_config_t *cfg)
{
    (void)cfg; /* EEPROM lives as long as the process: the core keeps its own copy */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int16_t (*trace)[3];
static long trace_len, trace_pos;
static die_vec_t rest = {0, 0, DIE_ONE_G};
static int shake_left;

static void load_trace(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    long cap = 4096;
    trace = malloc(sizeof(*trace) * (size_t)cap);
    char line[256];
    int x, y, z;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "%d,%d,%d", &x, &y, &z) == 3) {
            if (trace_len == cap) {
                cap *= 2;
                trace = realloc(trace, sizeof(*trace) * (size_t)cap);
            }
            trace[trace_len][0] = (int16_t)x;
            trace[trace_len][1] = (int16_t)y;
            trace[trace_len][2] = (int16_t)z;
            trace_len++;
        }
    }
    fclose(f);
    if (trace_len) {
        rest.x = trace[trace_len - 1][0];
        rest.y = trace[trace_len - 1][1];
        rest.z = trace[trace_len - 1][2];
    }
}

static die_vec_t next_sample(long tick)
{
    if (trace_pos < trace_len) {
        die_vec_t a = {trace[trace_pos][0], trace[trace_pos][1], trace[trace_pos][2]};
        trace_pos++;
        return a;
    }
    if (shake_left > 0) {
        shake_left--;
        die_vec_t a = {(int16_t)((tick % 3) * 9000 - 9000), (int16_t)((tick % 2) * 12000), 4000};
        return a;
    }
    die_vec_t a = {(int16_t)(rest.x + (tick % 3) * 20), rest.y, (int16_t)(rest.z - (tick % 2) * 20)};
    return a;
}

static void control_line(char *line)
{
    int x, y, z;
    if (sscanf(line, "rest %d %d %d", &x, &y, &z) == 3) {
        rest.x = (int16_t)x;
        rest.y = (int16_t)y;
        rest.z = (int16_t)z;
        shake_left = 20;
    } else if (strncmp(line, "quit", 4) == 0) {
        exit(0);
    }
}

int main(int argc, char **argv)
{
    double speed = 1.0;
    int ctl = -1;
    uint16_t mv = 3900;
    int opt;
    while ((opt = getopt(argc, argv, "s:c:b:")) != -1) {
        switch (opt) {
        case 's': speed = atof(optarg); break;
        case 'c': ctl = atoi(optarg); break;
        case 'b': mv = (uint16_t)atoi(optarg); break;
        default:
            fprintf(stderr, "usage: die_host [-s SPEED] [-c FD] [-b MV] [TRACE.csv]\n");
            return 2;
        }
    }
    if (optind < argc) {
        load_trace(argv[optind]);
    }
    die_init(&die, NULL, mv);
    double period = 1.0 / (DIE_TICK_HZ * speed);
    double next = now_s() + period;
    long tick = 0;
    char ctl_buf[256];
    size_t ctl_len = 0;
    for (;;) {
        double wait = next - now_s();
        struct pollfd fds[2] = {{0, POLLIN, 0}, {ctl, POLLIN, 0}};
        int n = poll(fds, ctl >= 0 ? 2 : 1, wait > 0 ? (int)(wait * 1000) : 0);
        if (n > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            uint8_t buf[256];
            ssize_t got = read(0, buf, sizeof(buf));
            if (got <= 0 && !(got < 0 && errno == EINTR)) {
                return 0;
            }
            for (ssize_t i = 0; i < got; i++) {
                die_rx_byte(&die, buf[i]);
            }
        }
        if (n > 0 && ctl >= 0 && (fds[1].revents & POLLIN)) {
            ssize_t got = read(ctl, ctl_buf + ctl_len, sizeof(ctl_buf) - 1 - ctl_len);
            if (got <= 0) {
                ctl = -1;
            } else {
                ctl_len += (size_t)got;
                ctl_buf[ctl_len] = 0;
                char *nl;
                while ((nl = strchr(ctl_buf, '\n')) != NULL) {
                    *nl = 0;
                    control_line(ctl_buf);
                    memmove(ctl_buf, nl + 1, ctl_len - (size_t)(nl + 1 - ctl_buf) + 1);
                    ctl_len = strlen(ctl_buf);
                }
            }
        }
        if (now_s() >= next) {
            die_tick(&die, next_sample(tick++));
            next += period;
        }
    }
}
