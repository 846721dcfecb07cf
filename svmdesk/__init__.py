"""svmdesk: a desktop lab for support vector machines."""


def version() -> str:
    """svmdesk's installed version ('(not installed)' when run from a bare checkout)."""
    try:
        from importlib.metadata import version as installed

        return installed("svmdesk")
    except Exception:  # noqa: BLE001 - not installed: running from a checkout
        return "(not installed)"
