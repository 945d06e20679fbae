package dev.varroa.operator.hibernation;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Random;

/**
 * The stable pseudo-random choice behind {@code H} in a job's timer spec, made exactly as Jenkins' {@code
 * hudson.scheduler.Hash.from(job full name)} makes it: the MD5 of the name folded to 64 bits seeds a {@link Random},
 * and every {@code H} of the job's spec lines, in order, draws the next value from that one sequence.
 */
abstract class JobHash {
  /** A value in [0, bound). */
  abstract int next(int bound);

  /** The hash Jenkins gives the job with this full name (e.g. {@code team/app/main}). */
  static JobHash of(String jobFullName) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("MD5").digest(jobFullName.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
    // bytes 8..15 are folded onto 0..7, which are read big-endian as the seed
    for (int i = 8; i < digest.length; i++) {
      digest[i % 8] ^= digest[i];
    }
    long seed = 0;
    for (int i = 0; i < 8; i++) {
      seed = (seed << 8) + (digest[i] & 0xFF);
    }
    Random random = new Random(seed);
    return new JobHash() {
      @Override
      int next(int bound) {
        return random.nextInt(bound);
      }
    };
  }
}
