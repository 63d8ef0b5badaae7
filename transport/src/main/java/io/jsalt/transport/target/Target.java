package io.jsalt.transport.target;

/** A target as published: its {@code tgt_type} wire name and the {@code tgt} (a string or a list). */
public record Target(String tgtType, Object tgt) {}
