package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;

/**
 * Reads one ComposedBundle input. {@link #currentRevision} is the cheap check (one ls-remote, one
 * tag resolve, a status read); {@link #fetch} downloads the files at that revision.
 */
public interface InputSource {
  String currentRevision(InputRef ref, BundleInput input) throws BundleException;

  ResolvedInput fetch(InputRef ref, BundleInput input, String revision) throws BundleException;
}
