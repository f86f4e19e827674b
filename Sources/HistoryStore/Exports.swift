// The record types (MinuteSample, ExitRecord, HistoryBatch, …) live in HistoryRecords so the
// sampler can build batches without linking SQLite; users of the store still see them.
@_exported import HistoryRecords
