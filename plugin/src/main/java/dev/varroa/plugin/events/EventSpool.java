package dev.varroa.plugin.events;

import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventKey;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Build events on disk under {@code $JENKINS_HOME/varroa/spool/}, from the moment they are emitted until the mite
 * acknowledges them, bounded by {@code VARROA_SPOOL_BYTES}.
 *
 * <p>Layout: numbered segment files {@code events-<n>.log} of records (length, CRC32C, a serialized
 * {@link BuildEvent}), each with an {@code events-<n>.acks} file of the {@link EventKey}s acknowledged from it; a
 * segment whose every event is acknowledged is deleted. {@code open-runs} holds the last sequence number of every run
 * still in flight, written (atomically) before a segment goes, so a restarted Jenkins continues each run's numbers.
 *
 * <p>Durability: {@link #append} writes the record to the file before it returns, so it survives Jenkins being
 * killed; {@link #nextBatch} forces (fsyncs) every segment it reads from before handing events to the sender, so no
 * event reaches the mite before it is on the disk. One fsync a batch, not one an event. A power loss can lose only
 * events not yet sent. A torn record at a segment's end (a crash mid-write) is cut off when the spool opens.
 *
 * <p>At the cap a new event is refused, not written, and counted ({@link SpoolStatus#refusedAtCap()}); what is
 * spooled is kept, and a WARNING naming {@code VARROA_SPOOL_BYTES} is logged at most once a minute.
 *
 * <p>Thread-safe: every method holds the spool's lock.
 */
public final class EventSpool implements Closeable {

  public static final String OPEN_RUNS_FILE = "open-runs";
  static final Duration CAP_WARNING_INTERVAL = Duration.ofMinutes(1);
  private static final Logger LOG = Logger.getLogger(EventSpool.class.getName());
  private static final Pattern SEGMENT_NAME = Pattern.compile("events-(\\d{19})\\.log");
  private static final int HEADER_BYTES = 8;
  private static final long MIN_SEGMENT_BYTES = 4L << 10;
  private static final long MAX_SEGMENT_BYTES = 4L << 20;
  private static final Pattern WHITESPACE = Pattern.compile("\\s");

  private final Path directory;
  private final long capBytes;
  private final long segmentBytes;
  private final Clock clock;
  private final TreeMap<Long, Segment> segments = new TreeMap<>();
  private final LinkedHashMap<RunSequence, Pending> pending = new LinkedHashMap<>();
  private final LinkedHashMap<String, Long> openRuns = new LinkedHashMap<>();
  private Segment active;
  private long nextSegmentNumber = 1;
  private long usedBytes;
  private long refusedAtCap;
  private Instant lastCapWarning;
  private boolean closed;

  private EventSpool(Path directory, long capBytes, Clock clock) {
    this.directory = directory;
    this.capBytes = capBytes;
    this.clock = clock;
    // Small segments free disk sooner at a small cap; large ones keep the file count down at a large one.
    this.segmentBytes = Math.max(MIN_SEGMENT_BYTES, Math.min(MAX_SEGMENT_BYTES, capBytes / 16));
  }

  /** Opens (or creates) the spool in {@code directory} and loads every unacknowledged event, in order. */
  public static EventSpool open(Path directory, long capBytes, Clock clock) throws IOException {
    if (capBytes <= 0) {
      throw new IllegalArgumentException(PluginSettings.SPOOL_BYTES_VARIABLE + " must be more than zero bytes");
    }
    Files.createDirectories(directory);
    EventSpool spool = new EventSpool(directory, capBytes, clock);
    spool.load();
    return spool;
  }

  /** The spool folder of a Jenkins home: {@code $JENKINS_HOME/varroa/spool}. */
  public static Path directoryOf(Path jenkinsHome) {
    return jenkinsHome.resolve("varroa").resolve("spool");
  }

  /**
   * Numbers the event (its run's next sequence number) and writes it, or refuses it at the cap. The draft needs a
   * run id without whitespace and a job; its sequence is overwritten.
   */
  public synchronized SpoolAdmission append(BuildEvent.Builder draft) {
    requireOpen();
    String runId = draft.getRunId();
    if (runId.isBlank() || WHITESPACE.matcher(runId).find()) {
      throw new IllegalArgumentException("build event run id '" + runId + "' must be non-empty without whitespace");
    }
    if (draft.getJob().isBlank()) {
      throw new IllegalArgumentException("build event of run " + runId + " names no job (the job's full name)");
    }
    long sequence = openRuns.getOrDefault(runId, 0L) + 1;
    BuildEvent event = draft.setSequence(sequence).build();
    RunSequence key = RunSequence.of(event);
    noteSequence(event);
    byte[] payload = event.toByteArray();
    long recordBytes = HEADER_BYTES + (long) payload.length;
    if (usedBytes + recordBytes > capBytes) {
      refusedAtCap++;
      warnAtCap();
      return new SpoolAdmission.RefusedAtCap(key, usedBytes, capBytes);
    }
    try {
      Segment segment = writableSegment(recordBytes);
      long offset = segment.append(record(payload));
      usedBytes += recordBytes;
      pending.put(key, new Pending(segment.number, offset, payload.length));
      segment.live++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write build event " + key + " to the spool " + directory, e);
    }
    notifyAll();
    return new SpoolAdmission.Spooled(key);
  }

  /** Ends a run that will send nothing more without a finalized event (a queue item cancelled before it ran). */
  public synchronized void forgetRun(String runId) {
    openRuns.remove(runId);
  }

  /** The last sequence number given to a run still in flight; 0 for a run the spool does not know. */
  public synchronized long lastSequence(String runId) {
    return openRuns.getOrDefault(runId, 0L);
  }

  /**
   * The oldest unacknowledged events, in spool order, at most {@code maxEvents} and about {@code maxBytes}
   * (always at least one). Every segment they come from is forced to disk first.
   */
  public synchronized List<BuildEvent> nextBatch(int maxEvents, long maxBytes) {
    requireOpen();
    List<BuildEvent> batch = new ArrayList<>();
    long bytes = 0;
    try {
      for (Segment segment : segments.values()) {
        segment.force();
      }
      for (Map.Entry<RunSequence, Pending> entry : pending.entrySet()) {
        Pending event = entry.getValue();
        if (batch.size() >= maxEvents || (!batch.isEmpty() && bytes + event.length > maxBytes)) {
          break;
        }
        batch.add(BuildEvent.parseFrom(segments.get(event.segment).read(event.offset, event.length)));
        bytes += event.length;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the spool " + directory, e);
    }
    return batch;
  }

  /** Waits until an event is pending, the timeout passes or the spool closes; true when one is pending. */
  public synchronized boolean awaitPending(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (pending.isEmpty() && !closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return !pending.isEmpty();
  }

  /** Releases acknowledged events; unknown keys (already released, or never spooled here) are ignored. */
  public synchronized void acknowledge(Collection<EventKey> keys) {
    requireOpen();
    try {
      for (EventKey key : keys) {
        Pending event = pending.remove(RunSequence.of(key));
        if (event == null) {
          continue;
        }
        Segment segment = segments.get(event.segment);
        byte[] ackRecord = record(key.toByteArray());
        segment.appendAck(ackRecord);
        usedBytes += ackRecord.length;
        segment.live--;
        if (segment.live == 0) {
          delete(segment);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record acknowledgements in the spool " + directory, e);
    }
  }

  public synchronized SpoolStatus status() {
    return new SpoolStatus(pending.size(), usedBytes, capBytes, refusedAtCap);
  }

  public Path directory() {
    return directory;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    for (Segment segment : segments.values()) {
      try {
        segment.force();
        segment.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    notifyAll();
    if (failure != null) {
      throw failure;
    }
  }

  private void load() throws IOException {
    readOpenRuns();
    TreeMap<Long, Path> files = new TreeMap<>();
    try (Stream<Path> listing = Files.list(directory)) {
      listing.forEach(path -> {
        Matcher name = SEGMENT_NAME.matcher(path.getFileName().toString());
        if (name.matches()) {
          files.put(Long.parseLong(name.group(1)), path);
        }
      });
    }
    for (Map.Entry<Long, Path> file : files.entrySet()) {
      Segment segment = Segment.open(file.getKey(), file.getValue(), ackFile(file.getKey()));
      segments.put(segment.number, segment);
      nextSegmentNumber = file.getKey() + 1;
      loadSegment(segment);
    }
  }

  private void loadSegment(Segment segment) throws IOException {
    Set<RunSequence> acknowledged = new HashSet<>();
    for (Record ack : segment.scan(segment.acks)) {
      acknowledged.add(RunSequence.of(EventKey.parseFrom(ack.payload)));
    }
    for (Record record : segment.scan(segment.events)) {
      BuildEvent event = BuildEvent.parseFrom(record.payload);
      noteSequence(event);
      RunSequence key = RunSequence.of(event);
      if (!acknowledged.contains(key) && !pending.containsKey(key)) {
        pending.put(key, new Pending(segment.number, record.offset, record.payload.length));
        segment.live++;
      }
    }
    usedBytes += segment.size + segment.ackSize;
    if (segment.live == 0) {
      delete(segment);
    }
  }

  private void noteSequence(BuildEvent event) {
    if (event.hasRunFinalized()) {
      openRuns.remove(event.getRunId());
    } else {
      openRuns.merge(event.getRunId(), event.getSequence(), Math::max);
    }
  }

  private Segment writableSegment(long recordBytes) throws IOException {
    if (active != null && active.size > 0 && active.size + recordBytes > segmentBytes) {
      active = null;
    }
    if (active == null) {
      long number = nextSegmentNumber++;
      active = Segment.open(number, directory.resolve(String.format("events-%019d.log", number)), ackFile(number));
      segments.put(number, active);
    }
    return active;
  }

  private Path ackFile(long number) {
    return directory.resolve(String.format("events-%019d.acks", number));
  }

  private void delete(Segment segment) throws IOException {
    // The run numbers the segment held must outlive it.
    writeOpenRuns();
    segment.close();
    Files.deleteIfExists(segment.eventsFile);
    Files.deleteIfExists(segment.acksFile);
    segments.remove(segment.number);
    usedBytes -= segment.size + segment.ackSize;
    if (segment == active) {
      active = null;
    }
  }

  private void writeOpenRuns() throws IOException {
    StringBuilder text = new StringBuilder();
    openRuns.forEach((runId, sequence) -> text.append(runId).append(' ').append(sequence).append('\n'));
    Path temporary = directory.resolve(OPEN_RUNS_FILE + ".tmp");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
    }
    try {
      Files.move(temporary, directory.resolve(OPEN_RUNS_FILE), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, directory.resolve(OPEN_RUNS_FILE), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private void readOpenRuns() throws IOException {
    Path file = directory.resolve(OPEN_RUNS_FILE);
    if (!Files.exists(file)) {
      return;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String[] fields = line.strip().split(" ");
      if (fields.length == 2 && fields[1].chars().allMatch(Character::isDigit) && !fields[1].isEmpty()) {
        openRuns.merge(fields[0], Long.parseLong(fields[1]), Math::max);
      } else if (!line.isBlank()) {
        LOG.warning(() -> "event=spool_open_runs_line_skipped file=" + file + " line=\"" + line + "\"");
      }
    }
  }

  private void warnAtCap() {
    Instant now = clock.instant();
    if (lastCapWarning != null && now.isBefore(lastCapWarning.plus(CAP_WARNING_INTERVAL))) {
      return;
    }
    lastCapWarning = now;
    LOG.log(Level.WARNING, "event=spool_full spool={0} used_bytes={1} cap_bytes={2} refused_total={3}"
        + " message=\"the Varroa build event spool is full: new build events are refused (and counted) until the"
        + " mite acknowledges spooled ones; check that the mite is running and connected, or raise "
        + PluginSettings.SPOOL_BYTES_VARIABLE + "\"",
        new Object[] {directory, Long.toString(usedBytes), Long.toString(capBytes), Long.toString(refusedAtCap)});
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the spool " + directory + " is closed");
    }
  }

  private static byte[] record(byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(payload);
    return ByteBuffer.allocate(HEADER_BYTES + payload.length)
        .putInt(payload.length).putInt((int) crc.getValue()).put(payload).array();
  }

  private record Pending(long segment, long offset, int length) {
  }

  private record Record(long offset, byte[] payload) {
  }

  /** One events file and its acknowledgements file. */
  private static final class Segment {
    final long number;
    final Path eventsFile;
    final Path acksFile;
    final FileChannel events;
    final FileChannel acks;
    long size;
    long ackSize;
    int live;
    boolean dirty;

    private Segment(long number, Path eventsFile, Path acksFile, FileChannel events, FileChannel acks) throws IOException {
      this.number = number;
      this.eventsFile = eventsFile;
      this.acksFile = acksFile;
      this.events = events;
      this.acks = acks;
      this.size = events.size();
      this.ackSize = acks.size();
    }

    static Segment open(long number, Path eventsFile, Path acksFile) throws IOException {
      FileChannel events = FileChannel.open(eventsFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileChannel acks = FileChannel.open(acksFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      return new Segment(number, eventsFile, acksFile, events, acks);
    }

    long append(byte[] record) throws IOException {
      long offset = size;
      writeFully(events, record, offset);
      size += record.length;
      dirty = true;
      return offset + HEADER_BYTES;
    }

    // Acknowledgements are not forced: one lost in a crash only makes its event go out again, which every hop dedupes.
    void appendAck(byte[] record) throws IOException {
      writeFully(acks, record, ackSize);
      ackSize += record.length;
    }

    byte[] read(long offset, int length) throws IOException {
      ByteBuffer buffer = ByteBuffer.allocate(length);
      while (buffer.hasRemaining()) {
        if (events.read(buffer, offset + buffer.position()) < 0) {
          throw new IOException(eventsFile + " ends before the record at " + offset);
        }
      }
      return buffer.array();
    }

    void force() throws IOException {
      if (dirty) {
        events.force(false);
        dirty = false;
      }
    }

    void close() throws IOException {
      events.close();
      acks.close();
    }

    /** Every whole record of a file; a torn or corrupt tail is cut off (and logged) so appends continue after it. */
    List<Record> scan(FileChannel channel) throws IOException {
      List<Record> records = new ArrayList<>();
      long length = channel.size();
      long position = 0;
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      while (position < length) {
        header.clear();
        int read = channel.read(header, position);
        if (read < HEADER_BYTES) {
          break;
        }
        int payloadLength = header.getInt(0);
        int checksum = header.getInt(4);
        if (payloadLength < 0 || position + HEADER_BYTES + payloadLength > length) {
          break;
        }
        ByteBuffer payload = ByteBuffer.allocate(payloadLength);
        channel.read(payload, position + HEADER_BYTES);
        CRC32C crc = new CRC32C();
        crc.update(payload.array());
        if ((int) crc.getValue() != checksum) {
          break;
        }
        records.add(new Record(position + HEADER_BYTES, payload.array()));
        position += HEADER_BYTES + payloadLength;
      }
      if (position < length) {
        long cut = position;
        Path file = channel == events ? eventsFile : acksFile;
        LOG.warning(() -> "event=spool_torn_record_cut file=" + file + " kept_bytes=" + cut + " cut_bytes=" + (length - cut));
        channel.truncate(position);
        channel.force(false);
      }
      if (channel == events) {
        size = position;
      } else {
        ackSize = position;
      }
      return records;
    }

    private static void writeFully(FileChannel channel, byte[] bytes, long position) throws IOException {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer, position + buffer.position());
      }
    }
  }
}
