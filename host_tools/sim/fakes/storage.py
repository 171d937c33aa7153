"""Fake ``storage``: as in code.py on a device plugged into USB, the drive stays as it is."""


def remount(
    mount_path: str, readonly: bool = False, *, disable_concurrent_write_protection: bool = False
) -> None:
    raise RuntimeError(f"Cannot remount '{mount_path}' when visible via USB.")


def disable_usb_drive() -> None:
    raise RuntimeError("Cannot change USB devices now")


def enable_usb_drive() -> None:
    raise RuntimeError("Cannot change USB devices now")
