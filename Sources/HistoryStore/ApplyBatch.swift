extension HistoryDatabase {
    /// Stores a batch from the sampler (the `sysstatsd-history` writer's one job): records
    /// the boot (a known id is refreshed, a new id adds a row), appends the samples and exits,
    /// and marks the boot clean when the batch ``HistoryBatch/endsCleanly``.
    ///
    /// Retention runs for the start batch (no rows, not the end) and then at most hourly:
    /// for a batch holding the first minute of an hour.
    public func apply(_ batch: HistoryBatch) throws(StoreError) {
        // One transaction per batch (a minute's rows, its exits and the boot's "last seen"):
        // a writer killed half-way leaves the database as it was before the batch.
        try connection.transaction { () throws(StoreError) in
            _ = try recordBoot(id: batch.bootID, bootTime: batch.bootTime,
                               uptimeSeconds: batch.uptimeSeconds, nowSeconds: batch.nowSeconds)
            try append(samples: batch.samples)
            try append(exits: batch.exits)
            try append(units: batch.units)
            if batch.endsCleanly {
                try markBootClean(id: batch.bootID, uptimeSeconds: batch.uptimeSeconds, nowSeconds: batch.nowSeconds)
            }
            let isStart = batch.samples.isEmpty && batch.exits.isEmpty && !batch.endsCleanly
            if isStart || batch.samples.contains(where: { $0.minute % 3600 == 0 }) {
                try applyRetention(nowSeconds: batch.nowSeconds)
            }
        }
    }
}
