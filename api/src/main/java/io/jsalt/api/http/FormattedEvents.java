package io.jsalt.api.http;

import io.jsalt.transport.event.EventFrame;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * salt-api's {@code /ws?format_events} ({@code event_processor.SaltInfo}): instead of the raw events, a running
 * view of jobs and minions, sent whole after each change. A job's {@code new} event starts it
 * ({@code {"jobs": {jid: {"jid", "start_time", "minions": {id: {"success": false}}, "fun", "tgt", "tgt_type",
 * "state": "running"}}}}); each return fills in its minion ({@code return}, {@code retcode}, {@code success}) and
 * the job is {@code complete} when every minion succeeded; {@code grains.items} returns, key accept/delete and
 * presence events update {@code {"minions": [{"id", "grains"?}]}}. Only events the user may read reach it.
 * Unlike salt-api, a minion seen by a presence event is not sent a {@code grains.items} job on the user's
 * behalf (an API that publishes jobs nobody asked for), events missing a field are skipped rather than
 * ending the stream, and at most {@link #JOBS} jobs are kept (the oldest go first).
 */
final class FormattedEvents {
    static final int JOBS = 1000;

    private final Map<String, Map<String, Object>> jobs = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, Object>> eldest) {
            return size() > JOBS;
        }
    };
    private final Map<String, Map<String, Object>> minions = new LinkedHashMap<>();

    /** The messages one event gives (none for events the view does not follow). */
    List<String> process(EventFrame event) {
        String[] parts = event.tag().split("/", -1);
        Map<String, Object> data = event.data();
        List<String> out = new ArrayList<>();
        if (parts.length < 2) {
            return out;
        }
        switch (parts[1]) {
            case "job" -> {
                if (parts.length >= 4 && parts[3].equals("new") && newJob(data)) {
                    out.add(publish("jobs", jobs));
                    if ("grains.items".equals(data.get("fun"))) {
                        minions.clear();
                    }
                } else if (parts.length == 5 && parts[3].equals("ret") && data.containsKey("return")) {
                    returned(parts[2], parts[4], data);
                    out.add(publish("jobs", jobs));
                    if ("grains.items".equals(data.get("fun"))) {
                        minions.computeIfAbsent(parts[4], id -> new LinkedHashMap<>()).put("grains", data.get("return"));
                        out.add(publishMinions());
                    }
                }
            }
            case "key" -> {
                if (data.get("id") instanceof String id) {
                    if ("delete".equals(data.get("act"))) {
                        minions.remove(id);
                    } else if ("accept".equals(data.get("act"))) {
                        minions.computeIfAbsent(id, k -> new LinkedHashMap<>());
                    }
                    out.add(publishMinions());
                }
            }
            case "presence" -> {
                if (data.get("present") instanceof List<?> present) {
                    Set<String> now = new HashSet<>();
                    present.forEach(id -> now.add(String.valueOf(id)));
                    if (minions.keySet().retainAll(now)) {
                        out.add(publishMinions());
                    }
                }
            }
            default -> {
                // salt-api follows jobs, keys and presence only
            }
        }
        return out;
    }

    private boolean newJob(Map<String, Object> data) {
        if (!(data.get("minions") instanceof List<?> ids) || data.get("jid") == null) {
            return false;
        }
        Map<String, Object> byMinion = new LinkedHashMap<>();
        ids.forEach(id -> byMinion.put(String.valueOf(id), new LinkedHashMap<>(Map.of("success", false))));
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("jid", data.get("jid"));
        job.put("start_time", data.get("_stamp"));
        job.put("minions", byMinion);
        job.put("fun", data.get("fun"));
        job.put("tgt", data.get("tgt"));
        job.put("tgt_type", data.get("tgt_type"));
        job.put("state", "running");
        jobs.put(String.valueOf(data.get("jid")), job);
        return true;
    }

    @SuppressWarnings("unchecked")
    private void returned(String jid, String id, Map<String, Object> data) {
        Map<String, Object> job = jobs.computeIfAbsent(jid, k -> new LinkedHashMap<>());
        Map<String, Object> byMinion = (Map<String, Object>) job.computeIfAbsent("minions", k -> new LinkedHashMap<String, Object>());
        Map<String, Object> minion = (Map<String, Object>) byMinion.computeIfAbsent(id, k -> new LinkedHashMap<String, Object>());
        minion.put("return", data.get("return"));
        minion.put("retcode", data.get("retcode"));
        minion.put("success", data.get("success"));
        boolean complete = byMinion.values().stream().allMatch(m -> Boolean.TRUE.equals(((Map<String, Object>) m).get("success")));
        if (complete) {
            job.put("state", "complete");
        }
    }

    private String publishMinions() {
        List<Object> list = new ArrayList<>();
        minions.forEach((id, info) -> {
            Map<String, Object> one = new LinkedHashMap<>(info);
            one.put("id", id);
            list.add(one);
        });
        return publish("minions", list);
    }

    private static String publish(String key, Object value) {
        return JsonBodies.write(Map.of(key, value));
    }
}
