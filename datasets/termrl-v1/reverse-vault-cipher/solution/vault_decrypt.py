import sys


def decrypt(key, blob):
    assert blob[:4] == b"VLT2", "not a vaultcrypt file"
    nonce = int.from_bytes(blob[4:8], "little")
    size = int.from_bytes(blob[8:12], "little")
    s = (key ^ nonce) & 0xFFFFFFFF
    if s == 0:
        s = 0x9E3779B9
    out = bytearray(blob[12:12 + size])
    for i in range(len(out)):
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        out[i] ^= (s >> 11) & 0xFF
    return bytes(out)


if __name__ == "__main__":
    key = int(sys.argv[1], 16)
    data = open(sys.argv[2], "rb").read()
    open(sys.argv[3], "wb").write(decrypt(key, data))
