package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Creates a BroodOperation from its template at the times a cron expression names, in a time zone. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("broodschedule")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Schedule", jsonPath = ".spec.schedule", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "TimeZone", jsonPath = ".spec.timeZone", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Suspend", jsonPath = ".spec.suspend", type = AdditionalPrinterColumn.Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Last", jsonPath = ".status.lastRunTime", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Next", jsonPath = ".status.nextRunTime", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Result", jsonPath = ".status.lastResult", type = AdditionalPrinterColumn.Type.STRING)
public class BroodSchedule extends CustomResource<BroodScheduleSpec, BroodScheduleStatus> implements Namespaced {}
