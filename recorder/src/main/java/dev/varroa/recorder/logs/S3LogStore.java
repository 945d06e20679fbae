package dev.varroa.recorder.logs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The s3 tier: one object per written piece at {@code <prefix>logs/<cluster>/<namespace>/<controller>/<runId>/<offset>}
 * (the offset as 20 zero-padded digits, so keys sort as offsets do) and a {@code complete} object beside them, its
 * body the log's total byte count, once the last chunk landed. Reads are ranged GETs of the overlapping pieces only.
 */
public final class S3LogStore implements LogStore {

  static final String COMPLETE = "complete";
  private static final int OFFSET_DIGITS = 20;
  private static final int DELETE_BATCH = 1000;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  private final S3Client client;
  private final String bucket;
  private final String keyPrefix;
  private final String where;

  S3LogStore(S3Client client, String bucket, String keyPrefix, String where) {
    this.client = client;
    this.bucket = bucket;
    this.keyPrefix = keyPrefix;
    this.where = where;
  }

  /** Builds the client without a request: the bucket may become reachable after the caller starts. */
  public static S3LogStore open(BlobStoreSettings settings) {
    if (settings.mode() != BlobStoreSettings.Mode.S3) {
      throw new IllegalArgumentException("S3LogStore needs " + BlobStoreSettings.MODE + "=s3, got " + settings.describe());
    }
    S3Client client = S3Client.builder()
        .endpointOverride(settings.s3Endpoint())
        .region(Region.of(settings.s3Region()))
        .forcePathStyle(true)
        // Many S3-compatible stores reject the SDK's default flexible checksums; send them only where S3 requires them.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(new CredentialsDirectoryProvider(settings.s3CredentialsDir()))
        .httpClient(UrlConnectionHttpClient.builder()
            .connectionTimeout(CONNECT_TIMEOUT)
            .socketTimeout(SOCKET_TIMEOUT)
            .build())
        .overrideConfiguration(override -> override.apiCallTimeout(CALL_TIMEOUT))
        .build();
    return new S3LogStore(client, settings.s3Bucket(), settings.s3KeyPrefix(),
        settings.s3Endpoint() + "/" + settings.s3Bucket());
  }

  @Override
  public String tier() {
    return BlobStoreSettings.Mode.S3.value();
  }

  @Override
  public LogExtent extent(LogKey key) throws LogStoreException {
    Run run = list(key);
    return run.extent();
  }

  @Override
  public LogExtent write(LogKey key, long offset, byte[] data, boolean last) throws LogStoreException {
    String run = runPrefix(key);
    long end = offset + data.length;
    try {
      if (data.length > 0) {
        client.putObject(put -> put.bucket(bucket).key(run + pieceName(offset)).contentLength((long) data.length),
            RequestBody.fromBytes(data));
      }
      if (last) {
        byte[] total = Long.toString(end).getBytes(StandardCharsets.US_ASCII);
        client.putObject(put -> put.bucket(bucket).key(run + COMPLETE).contentType("text/plain"),
            RequestBody.fromBytes(total));
      }
    } catch (SdkException e) {
      throw new LogStoreException("s3 store " + where + ": cannot write " + run + pieceName(offset) + ": "
          + e.getMessage(), e);
    }
    return new LogExtent(end, last);
  }

  @Override
  public byte[] read(LogKey key, long from, int maxBytes) throws LogStoreException {
    if (from < 0 || maxBytes < 0) {
      throw new IllegalArgumentException("read needs from >= 0 and maxBytes >= 0, got " + from + ", " + maxBytes);
    }
    Run run = list(key);
    long stored = run.extent().storedThrough();
    long until = Math.min(stored, from + maxBytes);
    if (from >= until) {
      return new byte[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) (until - from));
    long position = from;
    for (Piece piece : run.pieces()) {
      if (position >= until) {
        break;
      }
      if (piece.end() <= position || piece.offset() > position) {
        continue;
      }
      long first = position - piece.offset();
      long last = Math.min(piece.end(), until) - piece.offset() - 1;
      String objectKey = piece.key();
      try {
        byte[] bytes = client.getObjectAsBytes(get -> get.bucket(bucket).key(objectKey)
            .range("bytes=" + first + "-" + last)).asByteArray();
        out.write(bytes, 0, bytes.length);
        position += bytes.length;
      } catch (SdkException e) {
        throw new LogStoreException("s3 store " + where + ": cannot read " + objectKey + ": " + e.getMessage(), e);
      }
    }
    return out.toByteArray();
  }

  @Override
  public long deleteWrittenBefore(Instant cutoff) throws LogStoreException {
    String root = keyPrefix + "logs/";
    long deletedRuns = 0;
    String currentRun = null;
    List<String> runKeys = new ArrayList<>();
    Instant runLastWrite = Instant.MIN;
    try {
      // Keys come sorted, so one run's objects are adjacent: only one run is held at a time.
      for (S3Object object : client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket)
          .prefix(root).build()).contents()) {
        String run = object.key().substring(0, object.key().lastIndexOf('/') + 1);
        if (!run.equals(currentRun)) {
          if (currentRun != null && runLastWrite.isBefore(cutoff)) {
            delete(runKeys);
            deletedRuns++;
          }
          currentRun = run;
          runKeys.clear();
          runLastWrite = Instant.MIN;
        }
        runKeys.add(object.key());
        if (object.lastModified() != null && object.lastModified().isAfter(runLastWrite)) {
          runLastWrite = object.lastModified();
        }
      }
      if (currentRun != null && runLastWrite.isBefore(cutoff)) {
        delete(runKeys);
        deletedRuns++;
      }
    } catch (SdkException e) {
      throw new LogStoreException("s3 store " + where + ": cannot remove logs written before " + cutoff + ": "
          + e.getMessage(), e);
    }
    return deletedRuns;
  }

  private void delete(List<String> keys) {
    for (int start = 0; start < keys.size(); start += DELETE_BATCH) {
      List<ObjectIdentifier> batch = keys.subList(start, Math.min(keys.size(), start + DELETE_BATCH)).stream()
          .map(key -> ObjectIdentifier.builder().key(key).build()).toList();
      var answer = client.deleteObjects(delete -> delete.bucket(bucket).delete(Delete.builder().objects(batch)
          .quiet(true).build()));
      if (answer.hasErrors() && !answer.errors().isEmpty()) {
        var error = answer.errors().get(0);
        throw SdkException.builder().message("DeleteObjects refused " + answer.errors().size() + " keys, e.g. "
            + error.key() + ": " + error.code() + " " + error.message()).build();
      }
    }
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "S3LogStore[" + where + (keyPrefix.isEmpty() ? "" : " prefix " + keyPrefix) + "]";
  }

  /** The run's folder, ending in '/'. */
  String runPrefix(LogKey key) {
    return keyPrefix + "logs/" + segment(key.cluster()) + "/" + segment(key.namespace()) + "/"
        + segment(key.controller()) + "/" + segment(key.runId()) + "/";
  }

  static String pieceName(long offset) {
    String digits = Long.toString(offset);
    return "0".repeat(OFFSET_DIGITS - digits.length()) + digits;
  }

  // A key segment keeps letters, digits, '.', '_' and '-'; anything else (a '/' in a run id) is percent-encoded.
  static String segment(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
          || c == '-';
      if (plain) {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    String segment = out.toString();
    return segment.equals(".") || segment.equals("..") ? segment.replace(".", "%2E") : segment;
  }

  private Run list(LogKey key) throws LogStoreException {
    String prefix = runPrefix(key);
    List<Piece> pieces = new ArrayList<>();
    boolean marker = false;
    try {
      for (S3Object object : client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket)
          .prefix(prefix).build()).contents()) {
        String name = object.key().substring(prefix.length());
        if (name.equals(COMPLETE)) {
          marker = true;
        } else if (name.length() == OFFSET_DIGITS && name.chars().allMatch(Character::isDigit)) {
          pieces.add(new Piece(object.key(), Long.parseLong(name), object.size()));
        }
      }
      pieces.sort(Comparator.comparingLong(Piece::offset));
      long stored = 0;
      for (Piece piece : pieces) {
        if (piece.offset() > stored) {
          break;
        }
        stored = Math.max(stored, piece.end());
      }
      long contiguous = stored;
      boolean complete = marker && completeTotal(prefix).map(total -> total == contiguous).orElse(false);
      return new Run(pieces, new LogExtent(contiguous, complete));
    } catch (SdkException e) {
      throw new LogStoreException("s3 store " + where + ": cannot list " + prefix + ": " + e.getMessage(), e);
    }
  }

  private Optional<Long> completeTotal(String prefix) {
    String text = client.getObjectAsBytes(get -> get.bucket(bucket).key(prefix + COMPLETE)).asUtf8String().strip();
    try {
      return Optional.of(Long.parseLong(text));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private record Piece(String key, long offset, long size) {
    long end() {
      return offset + size;
    }
  }

  private record Run(List<Piece> pieces, LogExtent extent) {
  }
}
