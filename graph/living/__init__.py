"""The living dataset: a run's records checked against the store as it is now (drift, staleness), refreshed into
the next version (refresh, new_version); the versions, the manifest and the last check they keep live in the
run's folder (`graph.folder`)."""
