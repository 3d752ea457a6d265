from django.db import migrations


def create_counter(apps, schema_editor):
    counter_model = apps.get_model("planning", "PlanNumberCounter")
    counter_model.objects.get_or_create(pk=1, defaults={"last_number": 0})


class Migration(migrations.Migration):
    dependencies = [("planning", "0001_initial")]

    operations = [migrations.RunPython(create_counter, migrations.RunPython.noop)]
