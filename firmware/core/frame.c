#include "frame.h"

#include <string.h>

uint16_t crc16_ccitt(const uint8_t *data, uint8_t len)
{
    /* Bitwise rather than a 512-byte table: flash is 32 KiB and frames are short. */
    uint16_t crc = 0xFFFFu;
    for (uint8_t i = 0; i < len; i++) {
        crc ^= (uint16_t)((uint16_t)data[i] << 8);
        for (uint8_t b = 0; b < 8; b++) {
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
        }
    }
    return crc;
}

uint8_t cobs_encode(const uint8_t *in, uint8_t len, uint8_t *out)
{
    uint8_t code_at = 0;
    uint8_t code = 1;
    uint8_t o = 1;
    for (uint8_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = in[i];
            code++;
            /* Frames are at most FRAME_MAX_PAYLOAD + 2 < 254 bytes, so a run never reaches 0xFF. */
        }
    }
    out[code_at] = code;
    return o;
}

int16_t cobs_decode(const uint8_t *in, uint8_t len, uint8_t *out)
{
    uint8_t i = 0;
    uint8_t o = 0;
    while (i < len) {
        uint8_t code = in[i++];
        if (code == 0 || (uint16_t)i + code - 1u > len) {
            return -1;
        }
        for (uint8_t k = 1; k < code; k++) {
            if (in[i] == 0) {
                return -1;
            }
            out[o++] = in[i++];
        }
        if (code != 0xFF && i < len) {
            out[o++] = 0;
        }
    }
    return o;
}

uint8_t frame_encode(const uint8_t *payload, uint8_t len, uint8_t *out)
{
    uint8_t raw[FRAME_MAX_PAYLOAD + 2u];
    if (len == 0 || len > FRAME_MAX_PAYLOAD) {
        return 0;
    }
    memcpy(raw, payload, len);
    uint16_t crc = crc16_ccitt(payload, len);
    raw[len] = (uint8_t)(crc & 0xFFu);
    raw[len + 1u] = (uint8_t)(crc >> 8);
    uint8_t n = cobs_encode(raw, (uint8_t)(len + 2u), out);
    out[n++] = 0;
    return n;
}

void frame_rx_init(frame_rx_t *rx)
{
    memset(rx, 0, sizeof(*rx));
}

uint8_t frame_rx_byte(frame_rx_t *rx, uint8_t byte)
{
    if (byte != 0) {
        if (rx->len < sizeof(rx->buf)) {
            rx->buf[rx->len++] = byte;
        } else {
            rx->overflow = true;
        }
        return 0;
    }
    /* A delimiter ends whatever came before it: good frame, damaged frame, or nothing. */
    uint8_t n = rx->len;
    bool overflow = rx->overflow;
    rx->len = 0;
    rx->overflow = false;
    if (n == 0) {
        return 0; /* back-to-back delimiters are legal padding */
    }
    if (overflow) {
        rx->bad_frames++;
        return 0;
    }
    int16_t m = cobs_decode(rx->buf, n, rx->payload);
    if (m < 3) {
        rx->bad_frames++;
        return 0;
    }
    uint8_t plen = (uint8_t)(m - 2);
    uint16_t want = (uint16_t)(rx->payload[plen] | ((uint16_t)rx->payload[plen + 1u] << 8));
    if (crc16_ccitt(rx->payload, plen) != want) {
        rx->bad_frames++;
        return 0;
    }
    return plen;
}
