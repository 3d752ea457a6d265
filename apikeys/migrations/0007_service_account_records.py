"""Service accounts become records (docs/subsystems/api-keys.md "Service accounts"): each
existing organisation key gets its own service account, named as the key and made by whoever
made the key, so every key keeps working and its principal.id changes once, from the key's id
to its service account's."""

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
import django.utils.timezone
import uuid
from django.conf import settings
from django.db import migrations, models


def service_accounts_for_organisation_keys(apps, schema_editor):
    ApiKey = apps.get_model("integrations", "ApiKey")
    ServiceAccount = apps.get_model("integrations", "ServiceAccount")
    keys = ApiKey.objects.filter(organisation__isnull=False, service_account__isnull=True)
    # A key made by a roll (same organisation and name, created the instant the old one was
    # rolled) joins the old key's service account: a roll keeps the identity.
    rolled: dict[tuple, object] = {}
    for api_key in keys.order_by("created_at", "id").iterator():
        service_account_id = rolled.pop(
            (api_key.organisation_id, api_key.name, api_key.created_at), None
        )
        if service_account_id is None:
            service_account_id = ServiceAccount.objects.create(
                organisation_id=api_key.organisation_id,
                name=api_key.name,
                created_by_id=api_key.created_by_id,
                created_at=api_key.created_at,
            ).pk
        ApiKey.objects.filter(pk=api_key.pk).update(service_account_id=service_account_id)
        if api_key.rolled_at is not None:
            rolled[(api_key.organisation_id, api_key.name, api_key.rolled_at)] = service_account_id
    if schema_editor.connection.vendor == "postgresql":
        # The new foreign key is checked at commit; the check constraint below alters the
        # table, which PostgreSQL refuses while such checks are pending in this transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ('integrations', '0006_idempotent_requests'),
        ('organisations', '0002_invitations'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ServiceAccount',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=100)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
            ],
            options={
                'ordering': ('name', 'id'),
            },
        ),
        migrations.RemoveConstraint(
            model_name='apikey',
            name='integrations_apikey_one_holder',
        ),
        migrations.AddField(
            model_name='serviceaccount',
            name='created_by',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='serviceaccount',
            name='organisation',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='service_accounts', to='organisations.organisation'),
        ),
        migrations.AddField(
            model_name='apikey',
            name='service_account',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='api_keys', to='integrations.serviceaccount'),
        ),
        migrations.RunPython(service_accounts_for_organisation_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='apikey',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('organisation__isnull', True), ('owner__isnull', False), ('service_account__isnull', True)), models.Q(('organisation__isnull', False), ('owner__isnull', True), ('service_account__isnull', False)), _connector='OR'), name='integrations_apikey_one_holder'),
        ),
        migrations.AddConstraint(
            model_name='serviceaccount',
            constraint=models.CheckConstraint(condition=django.db.models.lookups.GreaterThan(django.db.models.functions.text.Length('name'), 0), name='integrations_serviceaccount_name_set'),
        ),
    ]
