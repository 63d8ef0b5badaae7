package io.jsalt.minion;

import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.MinionTok;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.files.RemoteMasterFiles;
import io.jsalt.minion.grains.GrainsReport;
import io.jsalt.minion.grains.GrainsReportRetry;
import io.jsalt.minion.grains.MinionGrains;
import io.jsalt.minion.jobs.JobRunner;
import io.jsalt.minion.jobs.ProcRecords;
import io.jsalt.minion.jobs.RunningJobs;
import io.jsalt.minion.masters.MasterLink;
import io.jsalt.minion.masters.MinionMasters;
import io.jsalt.minion.masters.StartEvents;
import io.jsalt.minion.modules.MinionModules;
import io.jsalt.minion.pillar.FreshPillar;
import io.jsalt.minion.pillar.MinionPillar;
import io.jsalt.minion.pillar.PillarModule;
import io.jsalt.minion.pillar.StateRunPillar;
import io.jsalt.minion.returns.ReturnOutbox;
import io.jsalt.minion.returns.ReturnRoutes;
import io.jsalt.minion.returns.ReturnSeal;
import io.jsalt.minion.returns.Returner;
import io.jsalt.minion.saltutil.SaltutilModule;
import io.jsalt.minion.schedule.ScheduleParser;
import io.jsalt.minion.schedule.ScheduleRunner;
import io.jsalt.minion.schedule.ScheduledJob;
import io.jsalt.minion.supervisor.Supervisor;
import io.jsalt.minion.supervisor.SupervisorEvents;
import io.jsalt.minion.supervisor.SupervisorModule;
import io.jsalt.minion.supervisor.SupervisordModule;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.message.RequestStamp;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One minion instance: signs in to its master, or to several ({@code master: [m1, m2]}: every one at once, or
 * one at a time with {@code master_type: failover}; see {@link MinionMasters}), runs the jobs that target it and
 * its own schedule, and keeps the returns no master could take until one can. Each master's line
 * ({@link MasterLink}) signs in, retries and notices a master that went away or changed its session key on its
 * own. A job runs once however many masters send it, and its return goes to the master that sent it first, to
 * another one when that one is gone. Many instances can share one {@link Transport} in a JVM: nothing here is
 * static.
 */
public final class Minion implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Minion.class);

    public enum State { STARTING, PENDING, SIGNED_IN, REJECTED, MASTER_REFUSED, STOPPED }

    private final MinionConfig config;
    private final Transport transport;
    private final CompletableFuture<String> terminated = new CompletableFuture<>();
    private final AtomicLong signIns = new AtomicLong();
    private volatile boolean stopped;
    private volatile Instant signedInAt;
    private KeyPair keyPair;
    /** Salt's {@code tok} for {@link #keyPair}, made on first use: see {@link #tok()}. */
    private volatile byte[] tok;
    private MinionMasters masters;
    private Returner returner;
    private JobRunner jobs;
    private MinionGrains grains;
    private GrainsReport grainsReport;
    /** The pillar the master last sent; filled at each sign-in, pillar refresh and state run. */
    private final MinionPillar pillar = new MinionPillar();
    private RunningJobs running;
    private MinionModules modules;
    private ScheduleRunner schedule;
    private final AtomicBoolean scheduleStarted = new AtomicBoolean();
    private Supervisor supervisor;
    private SupervisorEvents supervisorEvents;
    private final List<Duration> reportBackoff;
    private GrainsReportRetry reportRetry;

    public Minion(MinionConfig config, Transport transport) {
        this(config, transport, GrainsReportRetry.BACKOFF);
    }

    /** @param reportBackoff the waits before each new try of a sign-in's grains report the master did not answer */
    Minion(MinionConfig config, Transport transport, List<Duration> reportBackoff) {
        this.config = config;
        this.transport = transport;
        this.reportBackoff = List.copyOf(reportBackoff);
    }

    /**
     * Loads or creates the key, checks the schedule and starts signing in.
     *
     * @throws io.jsalt.config.ConfigException when the schedule is not usable as written
     */
    public void start() {
        keyPair = RsaKeys.loadOrCreate(config.pkiDir(), "minion");
        grains = MinionGrains.of(config.id(), config.grainsFile(), config.grains());
        running = new RunningJobs(new ProcRecords(config.cachedir().resolve("proc")), config.id());
        masters = MinionMasters.of(config, transport, keyPair, new MastersEvents());
        // modules reach the masters only from jobs, after a sign-in: through whichever master answers
        RemoteMasterFiles files = new RemoteMasterFiles(load -> masters.send(load), config.cachedir().resolve("files"));
        SaltutilModule saltutil = new SaltutilModule(running, grains::refresh, () -> grainsReport.send(), MinionModules.jarDir(config));
        // as Salt's grains.setvals does: every grains write ends with saltutil.refresh_grains(refresh_pillar=...)
        supervisorEvents = new SupervisorEvents(config.id(),
                this::tok,
                load -> masters.send(load));
        supervisor = Supervisor.forMinion(config, supervisorEvents);
        FreshPillar fromMasters = (override, saltenv, pillarenv) -> grainsReport.fetch(override, saltenv, pillarenv);
        PillarModule pillarModule = new PillarModule(pillar, fromMasters);
        // every state run renders with a pillar the masters compile for it, never an empty or old one in memory
        modules = new MinionModules(config, grains, files, List.of(saltutil, pillarModule, new SupervisorModule(supervisor),
                new SupervisordModule(supervisor)), tellMaster -> saltutil.refresh_grains(
                java.util.Map.of("refresh_pillar", tellMaster)), pillar, new StateRunPillar(fromMasters, pillar));
        reportRetry = new GrainsReportRetry(config.id(), reportBackoff, Duration.ofSeconds(config.authTimeout() + 1L));
        List<ScheduledJob> scheduled = new ScheduleParser(config.configDir().resolve(MinionConfig.FILE_NAME), modules.current()::has)
                .parse(config.schedule());
        grainsReport = new GrainsReport(config.id(), grains, masters, keyPair.getPrivate(), pillar::set);
        returner = new Returner(config.id(), (ReturnRoutes) masters, new ReturnOutbox(config.cachedir().resolve("returns")),
                config.returnRetryTimer(), config.returnRetryTimerMax(),
                ReturnSeal.of(config.minionSignMessages() ? keyPair.getPrivate() : null));
        jobs = new JobRunner(new JobRunner.Settings(config.id(), config.processCountMax(), config.returnRetryTimer(),
                config.returnRetryTimerMax(), config.minionSignMessages(), grains, config.cachedir().resolve("seen_publications"),
                pillar), modules, running, returner, keyPair.getPrivate());
        if (!scheduled.isEmpty()) {
            schedule = new ScheduleRunner(config.id(), scheduled, modules, returner, null); // the returner seals
        }
        supervisor.start(); // a definition it cannot use stops the start here, before any program runs
        masters.start();
    }

    /** Signed in to at least one master; else how far the sign-ins got. */
    public State state() {
        if (stopped) {
            return State.STOPPED;
        }
        MinionMasters m = masters;
        List<MasterLink> links = m == null ? List.of() : m.links();
        if (links.stream().anyMatch(l -> l.state() == MasterLink.State.SIGNED_IN)) {
            return State.SIGNED_IN;
        }
        if (links.stream().anyMatch(l -> l.state() == MasterLink.State.PENDING)) {
            return State.PENDING;
        }
        if (!links.isEmpty() && links.stream().allMatch(l -> l.state() == MasterLink.State.REJECTED)) {
            return State.REJECTED;
        }
        if (links.stream().anyMatch(l -> l.state() == MasterLink.State.MASTER_REFUSED)) {
            return State.MASTER_REFUSED;
        }
        return State.STARTING;
    }

    public String id() {
        return config.id();
    }

    /** How many times this minion has signed in since it started (re-authentications and every master included). */
    public long signIns() {
        return signIns.get();
    }

    /** When this minion last signed in (to any master); null before the first time. */
    public Instant signedInAt() {
        return signedInAt;
    }

    /**
     * When this minion last sent a sign-in request (answered or not, to any master): the load it offers the
     * masters, which random_reauth_delay spreads after a master restart. Null before the first attempt.
     */
    public Instant signInAskedAt() {
        MinionMasters m = masters;
        Instant latest = null;
        for (MasterLink link : m == null ? List.<MasterLink>of() : m.links()) {
            Instant asked = link.signInAskedAt();
            if (asked != null && (latest == null || asked.isAfter(latest))) {
                latest = asked;
            }
        }
        return latest;
    }

    /** The masters this minion is signed in to now, as {@code host:port}. */
    public List<String> signedInTo() {
        MinionMasters m = masters;
        return m == null ? List.of() : m.links().stream().filter(l -> l.state() == MasterLink.State.SIGNED_IN)
                .map(l -> l.address().toString()).toList();
    }

    /** Completes, with the reason, when this minion gives up for good (its key was rejected). */
    public CompletableFuture<String> terminated() {
        return terminated;
    }

    /** What the masters' links tell this minion. */
    private final class MastersEvents implements MinionMasters.Listener {
        @Override
        public void signedIn(MasterLink link) {
            signedInAt = Instant.now();
            signIns.incrementAndGet();
            afterSignIn(link);
        }

        @Override
        public void publication(MasterLink link, byte[] frame) {
            if (!stopped) { // closing: the job runner is closed before the masters' lines
                jobs.onPublication(frame, link);
            }
        }

        @Override
        public void noMaster(String reason) {
            terminated.complete(reason);
        }
    }

    /** On the link's thread after every successful sign-in to it. */
    private void afterSignIn(MasterLink link) {
        // as a salt-minion does: the master learns the grains (for grain targeting) before anything else
        GrainsReport report = new GrainsReport(config.id(), grains, link.channel(), keyPair.getPrivate(), pillar::set);
        if (!report.send()) {
            // a loaded master let the request time out: tried again in the background, not left until the next sign-in
            reportRetry.retry(report::send, () -> !stopped && link.state() == MasterLink.State.SIGNED_IN);
        }
        announceOnce(link);
        if (supervisor.mayHaveRows()) {
            // changes made while the master was away were dropped: the master learns where every program is now,
            // and which processes are no longer supervised at all
            java.util.List<io.jsalt.minion.supervisor.ProcessSnapshot> now = supervisor.status("all");
            now.forEach(supervisorEvents);
            supervisorEvents.present(now.stream().map(io.jsalt.minion.supervisor.ProcessSnapshot::name).toList());
        }
        returner.flushSoon();
        if (schedule != null && !stopped && scheduleStarted.compareAndSet(false, true)) {
            schedule.start(); // the schedule starts with the first sign-in: its returns need a master
        }
    }

    private void announceOnce(MasterLink link) {
        if (!link.firstAnnouncement()) {
            return; // once per link: a failover link is new for each move, so each master it moves to hears it
        }
        if (!link.awaitPublisher(Duration.ofSeconds(5))) {
            log.warn("{}: the publish port of master {} has not answered yet", config.id(), link.address());
        }
        String when = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT));
        String text = "Minion " + config.id() + " started at " + when;
        byte[] tok = tok();
        Session session = link.session();
        boolean jsaltMaster = session != null && session.returnMac() != null; // only a jsalt master gives a return secret
        for (Map<String, Object> load : StartEvents.loads(config.id(), tok, text, jsaltMaster)) {
            try {
                // stamped, so a jsalt master takes this request once (RequestStamp); a Salt master ignores the key
                link.channel().send(RequestStamp.stamp(load, System.currentTimeMillis()));
            } catch (TransportException | NotSignedInException e) {
                log.warn("{}: start event not delivered to {}: {}", config.id(), link.address(), Printable.reason(e));
            }
        }
    }

    /**
     * Salt's {@code tok}, which proves minion events: the key's X9.31 signature of {@code b"salt"}. That
     * signature is deterministic, so it is made once per key (an RSA private-key operation, ~8 ms on the minion's
     * C1 JVM), not for each master's start events and each supervisor event, and kept in pki_dir
     * ({@link MinionTok}), so a restarted minion reads it instead.
     */
    private byte[] tok() {
        byte[] t = tok;
        if (t == null) {
            t = MinionTok.loadOrMake(config.pkiDir().resolve(MinionTok.FILE_NAME), keyPair,
                    why -> log.warn("{}: its tok is not kept in pki_dir, it is made again at the next start: {}", config.id(), why));
            tok = t;
        }
        return t.clone();
    }

    @Override
    public void close() {
        stopped = true;
        if (schedule != null) {
            schedule.close();
        }
        if (jobs != null) {
            jobs.close();
        }
        if (running != null) {
            running.close();
        }
        if (supervisor != null) {
            supervisor.close(); // leaves the programs running for the next minion, or stops them (supervisor_on_stop)
        }
        if (supervisorEvents != null) {
            supervisorEvents.close();
        }
        if (modules != null) {
            modules.close();
        }
        if (reportRetry != null) {
            reportRetry.close();
        }
        if (returner != null) {
            returner.close();
        }
        if (masters != null) {
            masters.close(); // last: the supervisor tells the masters that its programs stopped (supervisor_on_stop)
        }
        terminated.complete("stopped");
    }
}
