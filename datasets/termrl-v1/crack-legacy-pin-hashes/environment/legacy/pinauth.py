"""Legacy kiosk PIN authentication (v2). Kept for reference only -- DO NOT DEPLOY.

Table `operators(id INTEGER, login TEXT, salt TEXT, pin_hash TEXT, status TEXT)`.
"""
import hashlib

PEPPER = b"kiosk-v2"


def _digest(login: str, salt_hex: str, pin: int) -> str:
    # PINs are always six digits; shorter numbers are left-padded with zeros.
    pin_txt = "%06d" % pin
    material = bytes.fromhex(salt_hex) + login.lower().encode() + b"|" + pin_txt.encode() + PEPPER
    return hashlib.sha256(hashlib.md5(material).digest()).hexdigest()


def check(row, pin: int) -> bool:
    if row["status"] != "active":
        return False
    return _digest(row["login"], row["salt"], pin) == row["pin_hash"]
