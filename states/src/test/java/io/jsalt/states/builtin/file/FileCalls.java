package io.jsalt.states.builtin.file;

import io.jsalt.states.TestCalls;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.run.StateCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.Map;

/** State calls for the file states' tests: a file server in a folder, a minion cachedir, required states. */
final class FileCalls {
    private FileCalls() {
    }

    static StateCall call(Path fileRoot, boolean test, String name, Object... args) {
        return TestCalls.call(fileRoot, test, name, args);
    }

    /** The same call on a minion whose cachedir is {@code cachedir} (where {@code backup: minion} copies go). */
    static StateCall withCachedir(StateCall call, Path cachedir) {
        RenderContext c = call.context();
        RenderContext context = new RenderContext(c.grains(), c.pillar(), Map.of("id", "m1", "cachedir", cachedir.toString()),
                c.saltenv(), c.sls(), c.path(), c.salt());
        return new StateCall(call.name(), call.args(), call.test(), call.salt(), call.files(), call.jinja(), context,
                call.required());
    }

    /** The same call on a minion with this pillar. */
    static StateCall withPillar(StateCall call, Map<String, Object> pillar) {
        RenderContext c = call.context();
        RenderContext context = new RenderContext(c.grains(), pillar, c.opts(), c.saltenv(), c.sls(), c.path(), c.salt());
        return new StateCall(call.name(), call.args(), call.test(), call.salt(), call.files(), call.jinja(), context,
                call.required());
    }

    /** The same call requiring {@code required} (as a {@code require} in an SLS gives it). */
    static StateCall requiring(StateCall call, StateChunk... required) {
        return new StateCall(call.name(), call.args(), call.test(), call.salt(), call.files(), call.jinja(),
                call.context(), List.of(required));
    }

    /** A file state of an SLS, as the compiler makes it. */
    static StateChunk fileChunk(String id, String fun, String name, Map<String, Object> args) {
        return new StateChunk(id, "web", "file", fun, name, 0, args, List.of());
    }

    /** {@code user:group} of a path itself. */
    static String owner(Path path) throws IOException {
        PosixFileAttributes attrs = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        return attrs.owner().getName() + ":" + attrs.group().getName();
    }

    /** The mode of a path as Salt writes it. */
    static String mode(Path path) throws IOException {
        return io.jsalt.modules.builtin.file.FileModes.format(io.jsalt.modules.builtin.file.FileModes.of(path));
    }
}
