package io.jsalt.modules;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A fixed {@link ModuleContext}. A minion whose grains change at run time (a grains refresh)
 * implements {@link ModuleContext} itself instead.
 */
public record SimpleModuleContext(String minionId, Map<String, Object> grains, Map<String, Object> opts,
                                  Path cachedir) implements ModuleContext {

    public SimpleModuleContext {
        Objects.requireNonNull(minionId, "minionId");
        Objects.requireNonNull(cachedir, "cachedir");
        // copies that keep null values, which grains and opts may legitimately hold
        grains = Collections.unmodifiableMap(new LinkedHashMap<>(grains == null ? Map.of() : grains));
        opts = Collections.unmodifiableMap(new LinkedHashMap<>(opts == null ? Map.of() : opts));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a context; only the minion id is required (cachedir defaults to the temp folder). */
    public static final class Builder {
        private String minionId;
        private Map<String, Object> grains = Map.of();
        private Map<String, Object> opts = Map.of();
        private Path cachedir = Path.of(System.getProperty("java.io.tmpdir"));

        private Builder() {
        }

        public Builder minionId(String minionId) {
            this.minionId = minionId;
            return this;
        }

        public Builder grains(Map<String, Object> grains) {
            this.grains = grains;
            return this;
        }

        public Builder opts(Map<String, Object> opts) {
            this.opts = opts;
            return this;
        }

        public Builder cachedir(Path cachedir) {
            this.cachedir = cachedir;
            return this;
        }

        public SimpleModuleContext build() {
            return new SimpleModuleContext(minionId, grains, opts, cachedir);
        }
    }
}
