package dev.mailrun.campaign.importing;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The reader's side of an import: gathers checked rows into batches and hands them to two writer
 * threads, which take every other batch.
 *
 * <ol>
 *   <li>Parsing and checking the next batch overlaps with writing the previous ones; on one
 *       connection the server waits while the client binds the next statement, so two writer
 *       connections each write every other batch.</li>
 *   <li>Batch i is handed over only once batch i − 2 has committed, so at most two neighbouring
 *       batches are in flight.</li>
 *   <li>The reader finds duplicates within a batch and against the batch before it (the one that
 *       may be written alongside); the database's unique key finds every older one, as every earlier
 *       batch has committed. Memory does not grow with the file.</li>
 *   <li>A duplicate is reported once its first row's fate is known: that row may itself turn out to
 *       repeat a row from long before, and then that row is the first.</li>
 * </ol>
 */
final class ImportPipeline implements AutoCloseable {

    /** A later row with the address of {@code first}, reported once {@code first}'s batch has committed. */
    private record Duplicate(long line, String rawEmail, Row first) {}

    private final BatchWriter writer;
    private final Outcomes outcomes;
    private final int batchSize;
    private final ExecutorService[] writers = {
            Executors.newSingleThreadExecutor(r -> new Thread(r, "mailrun-import-writer-1")),
            Executors.newSingleThreadExecutor(r -> new Thread(r, "mailrun-import-writer-2"))};
    private final Future<?>[] writing = {CompletableFuture.completedFuture(null), CompletableFuture.completedFuture(null)};
    private int nextWriter;
    /** The batch being read. */
    private Map<String, Row> batch = new LinkedHashMap<>();
    /** The batch handed to a writer last: it may be written alongside the one being read. */
    private Map<String, Row> previousBatch = Map.of();
    private final ArrayDeque<Duplicate> duplicates = new ArrayDeque<>();

    ImportPipeline(BatchWriter writer, Outcomes outcomes, int batchSize) {
        this.writer = writer;
        this.outcomes = outcomes;
        this.batchSize = batchSize;
    }

    /** Adds a checked row; returns true when that filled a batch and it was handed to a writer. */
    boolean add(Row row) throws SQLException, IOException {
        Row previous = batch.get(row.key());
        if (previous == null) {
            previous = previousBatch.get(row.key());
        }
        if (previous != null) {
            duplicates.add(new Duplicate(row.line(), row.rawEmail(), previous));
            return false;
        }
        batch.put(row.key(), row);
        if (batch.size() < batchSize) {
            return false;
        }
        await(writing[nextWriter]);
        reportDuplicates(false);
        List<Row> rows = take();
        writing[nextWriter] = writers[nextWriter].submit(() -> {
            writer.write(rows);
            return null;
        });
        nextWriter = 1 - nextWriter;
        return true;
    }

    /** Writes the last batch once every other one has committed, and reports the remaining duplicates. */
    void finish() throws SQLException, IOException {
        await(writing[nextWriter]);
        await(writing[1 - nextWriter]);
        writer.write(take());
        reportDuplicates(true);
    }

    /**
     * Waits for the writes still in flight, whatever their outcome, so that nothing is written after
     * the import returned or stopped and the count of committed rows is final.
     */
    @Override
    public void close() {
        for (Future<?> w : writing) {
            try {
                await(w);
            } catch (SQLException | IOException | RuntimeException e) {
                // The import already failed with the first error; this write failed too or was never needed.
            }
        }
        for (ExecutorService w : writers) {
            w.shutdownNow();
        }
    }

    private List<Row> take() {
        List<Row> rows = new ArrayList<>(batch.values());
        previousBatch = batch;
        batch = new LinkedHashMap<>();
        return rows;
    }

    /** Reports the duplicates whose first row's batch has committed; with {@code all}, none may be left. */
    private void reportDuplicates(boolean all) throws IOException {
        for (Iterator<Duplicate> it = duplicates.iterator(); it.hasNext(); ) {
            Duplicate d = it.next();
            long first = d.first().firstLine().get();
            if (first > 0) {
                outcomes.reject(d.line(), d.rawEmail(), RecipientRejectReason.DUPLICATE_IN_FILE, "first at line " + first);
                it.remove();
            }
        }
        if (all && !duplicates.isEmpty()) {
            throw new IllegalStateException(duplicates.size() + " duplicate rows were left unreported");
        }
    }

    private static void await(Future<?> writing) throws SQLException, IOException {
        try {
            writing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("import interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        }
    }
}
