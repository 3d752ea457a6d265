# Money (docs/subsystems/money.md "Money"): the plan's price index and markups, its annual budget,
# Action.interval_years and the Completion of Mark done.
#
# New columns with check constraints: SQLite adds them by rebuilding planning_plan and
# planning_action, which the change triggers of 0006/0010 forbid, so the triggers are set aside
# around the whole migration as 0015 does (PostgreSQL alters the tables in place). A plan made
# before gets its creation year as the price base year.

import django.core.validators
import django.db.models.deletion
import planning.models.plans
from django.conf import settings
from django.db import migrations, models
from django.db.models.functions import ExtractYear

from planning.db.rebuild import triggers_restore, triggers_set_aside


def base_year_fill(apps, schema_editor):
    plan = apps.get_model("planning", "Plan")
    plan.objects.update(price_base_year=ExtractYear("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('organisations', '0001_organisations'),
        ('planning', '0016_plan_import_organisation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.CreateModel(
            name='Completion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('completed_on', models.DateField()),
                ('planned_year', models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(1900, message='Enter a year between 1900 and 2200.'), django.core.validators.MaxValueValidator(2200, message='Enter a year between 1900 and 2200.')])),
                ('actual_cost', models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True, validators=[django.core.validators.MinValueValidator(0, message='Cannot be negative.')])),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ('completed_on', 'created_at'),
            },
        ),
        migrations.AddField(
            model_name='action',
            name='interval_years',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Leave empty for a one-off action.', null=True, validators=[django.core.validators.MinValueValidator(1, message='Enter a whole number of years between 1 and 100.'), django.core.validators.MaxValueValidator(100, message='Enter a whole number of years between 1 and 100.')], verbose_name='repeats every (years)'),
        ),
        migrations.AddField(
            model_name='plan',
            name='annual_budget',
            field=models.DecimalField(blank=True, decimal_places=2, help_text="Today's prices; the planning page marks the years above it. Optional.", max_digits=14, null=True, validators=[django.core.validators.MinValueValidator(0, message='Cannot be negative.')]),
        ),
        migrations.AddField(
            model_name='plan',
            name='index_rate_percent',
            field=models.DecimalField(db_default=0, decimal_places=2, default=0, help_text='Yearly price rise (negative for a fall), in %.', max_digits=5, validators=[django.core.validators.MinValueValidator(-10, message='Enter a percentage between -10 and 50.'), django.core.validators.MaxValueValidator(50, message='Enter a percentage between -10 and 50.')]),
        ),
        migrations.AddField(
            model_name='plan',
            name='overhead_percent',
            field=models.DecimalField(db_default=0, decimal_places=2, default=0, help_text='Added to every cost (fees, site), in %.', max_digits=5, validators=[django.core.validators.MinValueValidator(0, message='Enter a percentage between 0 and 100.'), django.core.validators.MaxValueValidator(100, message='Enter a percentage between 0 and 100.')]),
        ),
        migrations.AddField(
            model_name='plan',
            name='price_base_year',
            field=models.PositiveSmallIntegerField(default=planning.models.plans.this_year, help_text='The year whose prices the estimated costs are in.', validators=[django.core.validators.MinValueValidator(1900, message='Enter a year between 1900 and 2200.'), django.core.validators.MaxValueValidator(2200, message='Enter a year between 1900 and 2200.')]),
        ),
        migrations.AddField(
            model_name='plan',
            name='vat_percent',
            field=models.DecimalField(db_default=0, decimal_places=2, default=0, help_text='Added after the overhead, in %.', max_digits=5, validators=[django.core.validators.MinValueValidator(0, message='Enter a percentage between 0 and 100.'), django.core.validators.MaxValueValidator(100, message='Enter a percentage between 0 and 100.')]),
        ),
        migrations.AddConstraint(
            model_name='action',
            constraint=models.CheckConstraint(condition=models.Q(('interval_years__isnull', True), models.Q(('interval_years__gte', 1), ('interval_years__lte', 100)), _connector='OR'), name='action_interval_years_range'),
        ),
        migrations.AddConstraint(
            model_name='plan',
            constraint=models.CheckConstraint(condition=models.Q(('price_base_year__gte', 1900), ('price_base_year__lte', 2200)), name='plan_price_base_year_range'),
        ),
        migrations.AddConstraint(
            model_name='plan',
            constraint=models.CheckConstraint(condition=models.Q(('index_rate_percent__gte', -10), ('index_rate_percent__lte', 50)), name='plan_index_rate_range'),
        ),
        migrations.AddConstraint(
            model_name='plan',
            constraint=models.CheckConstraint(condition=models.Q(('overhead_percent__gte', 0), ('overhead_percent__lte', 100)), name='plan_overhead_percent_range'),
        ),
        migrations.AddConstraint(
            model_name='plan',
            constraint=models.CheckConstraint(condition=models.Q(('vat_percent__gte', 0), ('vat_percent__lte', 100)), name='plan_vat_percent_range'),
        ),
        migrations.AddConstraint(
            model_name='plan',
            constraint=models.CheckConstraint(condition=models.Q(('annual_budget__isnull', True), ('annual_budget__gte', 0), _connector='OR'), name='plan_annual_budget_not_negative'),
        ),
        migrations.AddField(
            model_name='completion',
            name='action',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='completions', to='planning.action'),
        ),
        migrations.AddField(
            model_name='completion',
            name='by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='completion',
            constraint=models.CheckConstraint(condition=models.Q(('actual_cost__isnull', True), ('actual_cost__gte', 0), _connector='OR'), name='completion_actual_cost_not_negative'),
        ),
        migrations.RunPython(base_year_fill, migrations.RunPython.noop),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
    ]
