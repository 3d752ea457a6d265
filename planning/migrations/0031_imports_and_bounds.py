# The bounds that move with the clock (validators only: planning.models.fields) and an upload's
# currency and plan.csv (PlanImport.currency, plan_content).

import datetime
import django.core.validators
import planning.models.fields
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('planning', '0030_plan_suggestions_labels'),
    ]

    operations = [
        migrations.AddField(
            model_name='planimport',
            name='currency',
            field=models.CharField(blank=True, default='', max_length=3),
        ),
        migrations.AddField(
            model_name='planimport',
            name='plan_content',
            field=models.BinaryField(default=b''),
        ),
        migrations.AlterField(
            model_name='action',
            name='planned_year',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MinValueValidator(planning.models.fields.planned_year_first, message='Enter a planned year from %(limit_value)s on (at most 50 years back).'), django.core.validators.MaxValueValidator(planning.models.fields.planned_year_last, message='Enter a planned year up to %(limit_value)s (at most 100 years ahead).')]),
        ),
        migrations.AlterField(
            model_name='completion',
            name='completed_on',
            field=models.DateField(validators=[django.core.validators.MinValueValidator(datetime.date(1950, 1, 1), message='Enter a date from %(limit_value)s on.'), django.core.validators.MaxValueValidator(planning.models.fields.today, message='Enter a date no later than today (%(limit_value)s).')]),
        ),
        migrations.AlterField(
            model_name='planversion',
            name='decided_on',
            field=models.DateField(validators=[django.core.validators.MinValueValidator(datetime.date(1950, 1, 1), message='Enter a date from %(limit_value)s on.'), django.core.validators.MaxValueValidator(planning.models.fields.today, message='Enter a date no later than today (%(limit_value)s).')]),
        ),
    ]
