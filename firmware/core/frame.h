/* Frame layer of the die protocol (PROTOCOL.md): CRC-16/CCITT-FALSE, then COBS, then a 0x00.
 *
 * Why COBS: the only 0x00 on the wire is the frame delimiter, so a receiver that lost a byte
 * or was plugged in mid-frame re-synchronises at the next 0x00 and loses one frame at most.
 * Why the CRC: COBS alone cannot tell a frame with a lost or flipped byte from a good one.
 * Portable C99, no board dependency: the same file runs on the ATmega328P and in host tests.
 */
#ifndef DIE_FRAME_H
#define DIE_FRAME_H

#include <stdint.h>
#include <stdbool.h>

#define FRAME_MAX_PAYLOAD 32u
/* payload + 2 CRC bytes + 1 COBS overhead byte (< 254 bytes) + 1 delimiter */
#define FRAME_MAX_WIRE (FRAME_MAX_PAYLOAD + 4u)

uint16_t crc16_ccitt(const uint8_t *data, uint8_t len);

/* COBS-encode len bytes of in into out (which needs len + 1 bytes). Returns bytes written.
 * No delimiter is appended. */
uint8_t cobs_encode(const uint8_t *in, uint8_t len, uint8_t *out);

/* COBS-decode len bytes (no delimiter) into out. Returns decoded length, or -1 when the input
 * holds a 0x00 or a code byte points past the end (a damaged frame). */
int16_t cobs_decode(const uint8_t *in, uint8_t len, uint8_t *out);

/* Build a complete wire frame (CRC appended, COBS, trailing 0x00). Returns its length, or 0 when
 * the payload is too long. out needs FRAME_MAX_WIRE bytes. */
uint8_t frame_encode(const uint8_t *payload, uint8_t len, uint8_t *out);

/* Streaming receiver: feed bytes one at a time; when a good frame ends, frame_rx_byte returns
 * its payload length (>0) and the payload is in rx->payload. Damaged frames are counted. */
typedef struct {
    uint8_t buf[FRAME_MAX_PAYLOAD + 3u]; /* the longest good frame, without its delimiter */
    uint8_t len;
    bool overflow;
    uint8_t payload[FRAME_MAX_PAYLOAD + 2u];
    uint16_t bad_frames;
} frame_rx_t;

void frame_rx_init(frame_rx_t *rx);
uint8_t frame_rx_byte(frame_rx_t *rx, uint8_t byte);

#endif
