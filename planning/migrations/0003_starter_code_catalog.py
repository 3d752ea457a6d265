"""The starter code catalog: about 40 common building components.

The figures (unit cost in EUR per unit, service life in years) are Maintplan's own default
reference values, rounded estimates for planning, not taken from any published price list or
standard. They are marked `is_default=True` and are meant to be adjusted in the admin. The
code numbers follow a DIN 276-like cost-group layout so that related components sort together.

The migration only adds codes that are missing, so an operator's edits survive a re-run, and
its reverse removes only default codes no structure node uses.
"""

from decimal import Decimal

from django.db import migrations

# (code, name, unit, unit_cost, service_life_years, keywords)
STARTER_CATALOG = [
    # Roofing
    ("363.1", "Pitched roof covering, clay or concrete tiles", "m2", "95.00", 50, "roof,pitched roof,tiles,roof covering,roofing"),
    ("363.2", "Flat roof waterproofing, bitumen membrane", "m2", "80.00", 25, "roof,flat roof,bitumen,membrane,waterproofing,roofing"),
    ("363.3", "Flat roof waterproofing, plastic or EPDM membrane", "m2", "90.00", 30, "roof,flat roof,epdm,pvc,membrane,waterproofing,roofing"),
    ("363.4", "Roof gutters and downpipes", "m", "60.00", 30, "gutter,downpipe,rainwater,drainage,roof"),
    ("363.5", "Rooflights and skylights", "pcs", "1800.00", 30, "rooflight,skylight,dome,roof window,roof"),
    ("364.1", "Roof thermal insulation", "m2", "55.00", 40, "roof,insulation,thermal,attic"),
    # Windows and doors
    ("334.1", "Windows, wood-aluminium", "m2", "850.00", 35, "window,windows,glazing,wood,aluminium"),
    ("334.2", "Windows, PVC", "m2", "600.00", 30, "window,windows,glazing,pvc,plastic"),
    ("334.3", "Entrance doors", "pcs", "4500.00", 30, "door,entrance,entry,front door,exterior door"),
    ("334.4", "Garage and industrial doors", "pcs", "6000.00", 25, "door,garage,gate,roller door,sectional door"),
    ("338.1", "External sun shading and blinds", "m2", "250.00", 20, "sun shading,blinds,shutters,awning,shade"),
    # Facade
    ("335.1", "Facade render", "m2", "90.00", 40, "facade,render,plaster,stucco,exterior wall"),
    ("335.2", "Facade paint coating", "m2", "30.00", 15, "facade,paint,painting,coating,exterior wall"),
    ("335.3", "External thermal insulation composite system (ETICS)", "m2", "160.00", 40, "facade,etics,insulation,thermal,exterior wall"),
    ("335.4", "Facing brickwork, repointing", "m2", "140.00", 60, "facade,brick,brickwork,masonry,repointing,joints"),
    ("335.5", "Curtain wall, glass facade", "m2", "1100.00", 40, "facade,curtain wall,glass,glazing"),
    ("339.1", "Balconies, waterproofing and railings", "pcs", "3500.00", 40, "balcony,balconies,railing,waterproofing,loggia"),
    # Heating
    ("421.1", "Gas condensing boiler", "pcs", "12000.00", 20, "heating,boiler,gas,condensing,heat generator"),
    ("421.2", "Air-to-water heat pump", "kW", "1500.00", 20, "heating,heat pump,air source,heat generator"),
    ("421.3", "District heating substation", "pcs", "18000.00", 25, "heating,district heating,substation,heat exchanger"),
    ("422.1", "Heating distribution pipework", "m", "70.00", 40, "heating,pipes,pipework,distribution,circulation pump"),
    ("423.1", "Radiators", "pcs", "450.00", 40, "heating,radiator,radiators,heat emitter"),
    ("423.2", "Thermostatic radiator valves", "pcs", "60.00", 15, "heating,thermostat,valve,trv,radiator"),
    # Ventilation and cooling
    ("431.1", "Air handling unit with heat recovery", "pcs", "25000.00", 20, "ventilation,air handling unit,ahu,heat recovery,hvac"),
    ("431.2", "Ventilation ductwork", "m", "80.00", 40, "ventilation,duct,ductwork,air,hvac"),
    ("431.3", "Exhaust fans", "pcs", "350.00", 15, "ventilation,fan,exhaust,extract,bathroom fan"),
    ("434.1", "Split air conditioning unit", "pcs", "3500.00", 15, "cooling,air conditioning,split unit,ac,hvac"),
    # Elevators
    ("461.1", "Passenger elevator, complete", "pcs", "80000.00", 25, "elevator,lift,passenger lift"),
    ("461.2", "Elevator drive and controls modernisation", "pcs", "30000.00", 20, "elevator,lift,drive,controls,modernisation"),
    # Fire safety
    ("456.1", "Fire alarm system", "m2", "12.00", 15, "fire,fire alarm,smoke detector,detection,alarm panel"),
    ("457.1", "Emergency and exit lighting", "pcs", "250.00", 15, "emergency lighting,exit sign,escape,fire safety"),
    ("474.1", "Sprinkler system", "m2", "45.00", 40, "fire,sprinkler,extinguishing,fire safety"),
    ("474.2", "Portable fire extinguishers", "pcs", "120.00", 10, "fire,extinguisher,fire safety"),
    ("344.1", "Fire doors", "pcs", "2200.00", 30, "fire door,door,fire safety,compartment"),
    ("363.6", "Smoke and heat exhaust vents", "pcs", "2500.00", 25, "smoke vent,smoke extraction,fire safety,roof"),
    # Electrical
    ("444.1", "Main low-voltage distribution board", "pcs", "15000.00", 30, "electrical,distribution board,switchboard,main panel"),
    ("444.2", "Electrical wiring and installation", "m2", "60.00", 40, "electrical,wiring,cables,sockets,installation"),
    ("445.1", "LED lighting", "pcs", "180.00", 20, "lighting,led,luminaire,lights,electrical"),
    ("442.1", "Photovoltaic system", "kWp", "1300.00", 25, "photovoltaic,pv,solar,solar panels,electrical"),
    ("446.1", "Lightning protection", "pcs", "6000.00", 40, "lightning protection,earthing,grounding,electrical"),
    # Sanitary
    ("411.1", "Wastewater and drainage pipes", "m", "120.00", 50, "sanitary,wastewater,drainage,sewer,pipes"),
    ("411.2", "Sewage lifting station", "pcs", "7000.00", 15, "sanitary,sewage,pump,lifting station,wastewater"),
    ("412.1", "Drinking water pipes", "m", "90.00", 40, "sanitary,water,drinking water,pipes,plumbing"),
    ("412.2", "Hot water storage tank", "pcs", "3000.00", 20, "sanitary,hot water,storage tank,boiler,cylinder"),
    ("419.1", "Sanitary fixtures (WC, washbasin, shower)", "pcs", "900.00", 25, "sanitary,wc,toilet,washbasin,shower,bathroom"),
    # Exterior works
    ("521.1", "Asphalt paving", "m2", "55.00", 25, "exterior,asphalt,paving,road,parking"),
    ("521.2", "Concrete block paving", "m2", "70.00", 30, "exterior,paving,pavers,concrete,pathway"),
    ("533.1", "Fencing", "m", "120.00", 25, "exterior,fence,fencing,gate"),
    ("541.1", "Exterior lighting", "pcs", "1200.00", 20, "exterior,lighting,street light,outdoor lighting"),
    ("574.1", "Playground equipment", "pcs", "8000.00", 15, "exterior,playground,play equipment"),
]


def add_starter_catalog(apps, schema_editor):
    code_model = apps.get_model("planning", "Code")
    for code, name, unit, unit_cost, service_life_years, keywords in STARTER_CATALOG:
        code_model.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "unit": unit,
                "unit_cost": Decimal(unit_cost),
                "service_life_years": service_life_years,
                "keywords": keywords,
                "is_default": True,
            },
        )


def remove_unused_starter_catalog(apps, schema_editor):
    code_model = apps.get_model("planning", "Code")
    code_model.objects.filter(
        code__in=[row[0] for row in STARTER_CATALOG], is_default=True, nodes__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("planning", "0002_plan_number_counter_row")]

    operations = [migrations.RunPython(add_starter_catalog, remove_unused_starter_catalog)]
