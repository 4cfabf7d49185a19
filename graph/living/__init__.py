"""The living dataset: a run's records checked against the store as it is now (drift, staleness), refreshed into
the next version (refresh, versions), and the collection's fingerprint they are compared with (manifest)."""
